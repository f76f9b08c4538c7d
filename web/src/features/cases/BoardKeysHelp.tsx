import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { BOARD_KEYS } from './boardKeys';

const kbdSx = {
  display: 'inline-block', minWidth: 24, px: 0.75, py: 0.25, mr: 0.5, borderRadius: 1, border: 1, borderColor: 'divider',
  bgcolor: 'action.hover', fontFamily: 'monospace', fontSize: 13, fontWeight: 700, textAlign: 'center', lineHeight: 1.4,
} as const;

/** The board's keys, listed (opened by ? or by the board's "Keyboard shortcuts" button). */
export function BoardKeysHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="board-keys-title"
      // ? again closes it, as it opened it.
      onKeyDown={(e) => {
        if (e.key === '?') onClose();
      }}
    >
      <DialogTitle id="board-keys-title">Board keys</DialogTitle>
      <DialogContent>
        <Box component="dl" data-testid="board-keys" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1, m: 0 }}>
          {BOARD_KEYS.map((k) => (
            <Box key={k.what} sx={{ display: 'contents' }}>
              <Box component="dt" sx={{ whiteSpace: 'nowrap' }}>
                {k.keys.map((key) => <Box key={key} component="kbd" sx={kbdSx}>{key}</Box>)}
              </Box>
              <Box component="dd" sx={{ m: 0, typography: 'body2' }}>{k.what}</Box>
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
