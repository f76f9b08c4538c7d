import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A calm, centred "nothing here" panel. */
export function EmptyPanel({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <Paper variant="outlined" sx={{ py: 6, px: 3, textAlign: 'center' }}>
      <Box sx={{ color: 'text.secondary', '& svg': { fontSize: 48 }, mb: 1 }}>{icon}</Box>
      <Typography variant="h6" component="p">{title}</Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>{text}</Typography>
    </Paper>
  );
}
