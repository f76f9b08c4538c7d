import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { SigninLimitsDto } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { queries } from '../../../api/queries';
import { useApiMutation } from '../../../api/useApiMutation';
import { useToast } from '../../../layout/toast';
import { withServerReason } from '../shared/errors';
import { signinLimitText } from './signinLimitText';

/**
 * In Edit Operator: whether strangers spent the account's sign-in code mails (its owner, with no
 * code left to type, is refused until then), and a Clear that lets the owner have a code at once.
 */
export function SigninLimits({ userId, name }: { userId: number; name: string }) {
  const toast = useToast();
  const limits = useQuery(queries.signinLimits(userId));
  const clear = useApiMutation<{ id: number }, SigninLimitsDto>(mutations.clearSigninLimits, {
    onSuccess: () => toast(`Cleared ${name}'s sign-in limits`, 'success'),
    onError: (error) => toast(withServerReason(error, 'Failed to clear the sign-in limits'), 'error'),
  });
  if (!limits.data) return null;
  const text = signinLimitText(limits.data);
  if (!limits.data.limitedUntil) return <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>{text}</Typography>;
  return (
    <Alert
      severity="warning"
      sx={{ mt: 2 }}
      action={(
        <Button color="inherit" size="small" disabled={clear.isPending} onClick={() => clear.mutate({ id: userId })} aria-label={`Clear ${name}'s sign-in limits`}>
          Clear
        </Button>
      )}
    >
      {text}
    </Alert>
  );
}
