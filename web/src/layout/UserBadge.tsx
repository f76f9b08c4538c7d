import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useSession } from '../auth/useSession';

const initials = (name: string) =>
  name.split(/[\s@.]+/).filter(Boolean).slice(0, 2).map((part) => part[0].toUpperCase()).join('');

/** Who is signed in, for the shell header. */
export function UserBadge() {
  const session = useSession();
  if (!session) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25 }}>
      <Box sx={{ textAlign: 'right', display: { xs: 'none', sm: 'block' } }}>
        <Typography variant="body2" sx={{ fontWeight: 600, lineHeight: 1.2 }}>{session.name}</Typography>
        <Typography variant="caption" color="text.secondary" sx={{ textTransform: 'capitalize' }}>{session.role}</Typography>
      </Box>
      <Avatar sx={{ width: 36, height: 36, bgcolor: 'secondary.main', color: 'secondary.contrastText', fontSize: 15 }}>
        {initials(session.name)}
      </Avatar>
    </Box>
  );
}
