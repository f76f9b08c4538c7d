import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { ButtonLink } from './links';

/**
 * A page-level notice: what happened, in a heading and a sentence, and the one way on.
 * Used where the router cannot show what was asked for (an unknown path, a page for
 * another role), so that the user is never dropped somewhere without a word.
 */
export function NoticeCard({ icon, title, children, to, action }: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  /** Where the button leads (one of the staff homes). */
  to: '/dashboard' | '/admin-dashboard';
  action: string;
}) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, maxWidth: 520, mx: 'auto', mt: { xs: 2, sm: 6 }, textAlign: 'center' }}>
      {icon}
      <Typography variant="h5" component="h1" gutterBottom>{title}</Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>{children}</Typography>
      <ButtonLink to={to} variant="contained">{action}</ButtonLink>
    </Paper>
  );
}
