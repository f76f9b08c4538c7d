import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useToast } from '../../../layout/toast';
import { CopyIcon, OpenInNewIcon } from '../../../layout/icons';
import { copyText } from '../../../layout/clipboard';
import { isRedactedLink, linkLabel } from './outboxText';

/** A message's links, each easy to open in a new tab or copy; a link whose token was removed after sending is shown as text only. */
export function MessageLinks({ links }: { links: string[] }) {
  const toast = useToast();
  const copy = (link: string) =>
    void copyText(link).then((ok) => (ok ? toast('Link copied', 'success') : toast('Could not copy the link', 'error')));

  return (
    <Stack spacing={1}>
      {links.map((link) => isRedactedLink(link) ? (
        <Box key={link} sx={{ p: 1.25, borderRadius: 2, bgcolor: 'action.hover' }}>
          <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 700, textTransform: 'uppercase', letterSpacing: 0.4 }}>
            {linkLabel(link)} · token removed after sending
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{link}</Typography>
        </Box>
      ) : (
        <Box key={link} sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', p: 1.25, borderRadius: 2, bgcolor: 'action.hover' }}>
          <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
            <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 700, textTransform: 'uppercase', letterSpacing: 0.4 }}>
              {linkLabel(link)}
            </Typography>
            <Typography variant="body2" component="a" href={link} target="_blank" rel="noopener noreferrer"
              sx={{ display: 'block', fontFamily: 'monospace', wordBreak: 'break-all', color: 'secondary.main' }}>
              {link}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1}>
            <Button size="small" variant="contained" startIcon={<OpenInNewIcon />} href={link} target="_blank" rel="noopener noreferrer"
              aria-label={`Open ${linkLabel(link).toLowerCase()}`}>
              Open
            </Button>
            <Button size="small" variant="outlined" startIcon={<CopyIcon />} onClick={() => void copy(link)}
              aria-label={`Copy ${linkLabel(link).toLowerCase()}`}>
              Copy
            </Button>
          </Stack>
        </Box>
      ))}
    </Stack>
  );
}
