import { useSession } from '../../../auth/useSession';
import { ChevronLeftIcon } from '../../../layout/icons';
import { ButtonLink } from '../../../layout/links';

/** The way back from the stand-alone page to the signed-in user's own shell. */
export function BackToDashboard() {
  const isAdmin = useSession()?.role === 'admin';
  return (
    <ButtonLink to={isAdmin ? '/admin-dashboard' : '/dashboard'} startIcon={<ChevronLeftIcon />} size="small" sx={{ mb: 2 }}>
      {isAdmin ? 'Back to Admin Portal' : 'Back to Dashboard'}
    </ButtonLink>
  );
}
