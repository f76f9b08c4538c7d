import { useState, type ChangeEvent, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SignInInput } from '../../api/contract';
import { useSignIn } from './useSignIn';

const EMPTY: SignInInput = { email: '', username: '', phone: '' };

/**
 * Email, Username and Phone Number; there is no password. When the server mails a one-time
 * code (SIGNIN_CODE=email), the form then asks for it.
 */
export function SignInForm() {
  const [values, setValues] = useState<SignInInput>(EMPTY);
  const [code, setCode] = useState('');
  const { signIn, verify, challenge, restart } = useSignIn();

  const change = (field: keyof SignInInput) => (event: ChangeEvent<HTMLInputElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!signIn.isPending) {
      setCode('');
      signIn.mutate(values);
    }
  };

  const submitCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!verify.isPending && challenge) verify.mutate({ challenge, code });
  };

  if (challenge) {
    return (
      <Stack component="form" onSubmit={submitCode} spacing={2.5} aria-label="Verify sign-in">
        <Typography color="text.secondary">
          We e-mailed a 6-digit code to {values.email.trim()}. Enter it to finish signing in; it is valid for 10 minutes.
        </Typography>
        <TextField label="Verification Code" name="code" autoComplete="one-time-code" required fullWidth autoFocus
          value={code} onChange={(event) => setCode(event.target.value)}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 9 } }} />
        <Button type="submit" variant="contained" size="large" disabled={verify.isPending} sx={{ py: 1.5 }}>
          {verify.isPending ? 'VERIFYING...' : 'VERIFY'}
        </Button>
        <Button type="button" variant="text" onClick={restart} disabled={verify.isPending}>
          Back
        </Button>
      </Stack>
    );
  }

  return (
    <Stack component="form" onSubmit={submit} spacing={2.5} aria-label="Sign in">
      <TextField label="Email" name="email" type="email" autoComplete="email" required fullWidth
        value={values.email} onChange={change('email')} />
      <TextField label="Username" name="username" autoComplete="username" required fullWidth
        value={values.username} onChange={change('username')} />
      <TextField label="Phone Number" name="phone" type="tel" autoComplete="tel" required fullWidth
        value={values.phone} onChange={change('phone')} />
      <Button type="submit" variant="contained" size="large" disabled={signIn.isPending} sx={{ py: 1.5 }}>
        {signIn.isPending ? 'SIGNING IN...' : 'GET STARTED'}
      </Button>
    </Stack>
  );
}
