import { useState, type ChangeEvent, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { SignInInput } from '../../api/contract';
import { useSignIn } from './useSignIn';

const EMPTY: SignInInput = { email: '', username: '', phone: '' };

/** Email, Username and Phone Number; there is no password. */
export function SignInForm() {
  const [values, setValues] = useState<SignInInput>(EMPTY);
  const signIn = useSignIn();

  const change = (field: keyof SignInInput) => (event: ChangeEvent<HTMLInputElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!signIn.isPending) signIn.mutate(values);
  };

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
