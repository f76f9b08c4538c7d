import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { queries } from '../../api/queries';
import { useSession } from '../../auth/useSession';
import { LogoutIcon } from '../../layout/icons';
import { ScreenTitle } from '../../layout/ScreenTitle';
import { ProfileDetails } from './ProfileDetails';
import { useLogout } from './useLogout';

function profileError(hasToken: boolean, error: unknown): string | null {
  if (!hasToken) return 'No authentication token found';
  if (!error) return null;
  return error instanceof ApiError ? 'Failed to fetch user profile' : 'Failed to load user data';
}

/** The signed-in staff member's profile, in the operator shell and the admin portal. */
export function ProfileScreen() {
  const token = useSession()?.token;
  // The shell asked for the profile first (with its bounded retries). When that failed, this
  // screen shows the failure instead of asking again on mount: a refetch puts the query back
  // to pending, the shell then swaps itself for Loading and unmounts this screen, which on
  // mounting again would refetch: a request loop with Loading forever.
  const profile = useQuery({ ...queries.profile(), enabled: Boolean(token), retryOnMount: false });
  const logout = useLogout();

  if (token && profile.isPending) {
    return (
      <Box role="status" aria-label="Loading profile" sx={{ display: 'grid', placeItems: 'center', py: 10 }}>
        <CircularProgress />
      </Box>
    );
  }

  const error = profileError(Boolean(token), profile.error);
  const user = profile.data?.user;

  const title = <ScreenTitle title="My Profile" subtitle="Your account and employment details" />;
  if (!user) {
    // The screen's heading stays when its data failed: the page still needs its one level-one heading.
    return (
      <Box sx={{ maxWidth: 640 }}>
        {title}
        <Stack spacing={2}>
          {error && <Alert severity="error">{error}</Alert>}
          <Typography color="text.secondary">No profile data available</Typography>
        </Stack>
      </Box>
    );
  }

  return (
    <Box sx={{ maxWidth: 1040 }}>
      {title}
      <Card sx={{ p: 3, mb: 3, display: 'flex', alignItems: 'center', gap: 2.5, flexWrap: 'wrap' }}>
        <Avatar sx={{ width: 64, height: 64, bgcolor: 'primary.main', fontSize: 26 }}>
          {user.name.trim().charAt(0).toUpperCase() || '?'}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 180 }}>
          <Typography variant="h5" component="h2">{user.name}</Typography>
          <Typography color="text.secondary">ID: {user.id}</Typography>
        </Box>
        <Button variant="outlined" color="error" startIcon={<LogoutIcon />} onClick={() => void logout()}>
          Logout
        </Button>
      </Card>
      <ProfileDetails user={user} />
    </Box>
  );
}
