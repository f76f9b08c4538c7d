import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ApiError } from '../../api/client';
import type { SignInResponse } from '../../api/contract';
import { mutations } from '../../api/mutations';
import { useApiMutation } from '../../api/useApiMutation';
import { saveSession } from '../../auth/session';

/** How long the router gets before a full page load to the target is forced. */
const REDIRECT_FALLBACK_MS = 100;

const alertError = (error: unknown, fallback: string) =>
  window.alert(error instanceof ApiError ? error.serverError ?? fallback : 'Network error. Please try again.');

/**
 * POST /api/auth/signin (no bearer). On success the session is stored and the user goes
 * to /admin-dashboard (admins) or /dashboard, replacing the history entry. When the server
 * asks for a mailed code (SIGNIN_CODE=email) the answer holds a challenge instead, and
 * `verify` sends it with the code to POST /api/auth/signin/verify, which ends the same way.
 */
export function useSignIn() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [challenge, setChallenge] = useState<string | null>(null);

  const complete = (response: SignInResponse) => {
    queryClient.clear();
    saveSession(response);
    const target = response.user.role === 'admin' ? '/admin-dashboard' : '/dashboard';
    void navigate({ to: target, replace: true });
    window.setTimeout(() => {
      const path = window.location.pathname;
      if (path === '/signin' || path === '/') window.location.assign(target);
    }, REDIRECT_FALLBACK_MS);
  };

  const signIn = useApiMutation(mutations.signIn, {
    onSuccess: (result) => {
      if ('codeRequired' in result) setChallenge(result.challenge);
      else complete(result);
    },
    onError: (error) => alertError(error, 'Sign in failed'),
  });

  const verify = useApiMutation(mutations.verifySignIn, {
    onSuccess: complete,
    onError: (error) => {
      alertError(error, 'Verification failed');
      // A dead challenge (too many tries, expired, replaced): back to the first step.
      if (error instanceof ApiError && /sign in again/i.test(error.serverError ?? '')) setChallenge(null);
    },
  });

  return { signIn, verify, challenge, restart: () => setChallenge(null) };
}
