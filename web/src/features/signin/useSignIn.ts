import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ApiError, apiFetch } from '../../api/client';
import type { SignInInput, SignInResponse } from '../../api/contract';
import { saveSession } from '../../auth/session';

/** How long the router gets before a full page load to the target is forced. */
const REDIRECT_FALLBACK_MS = 100;

/**
 * POST /api/auth/signin (no bearer). On success the session is stored and the user goes
 * to /admin-dashboard (admins) or /dashboard, replacing the history entry.
 */
export function useSignIn() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (input: SignInInput) =>
      apiFetch<SignInResponse>('/api/auth/signin', { method: 'POST', body: input, auth: false }),
    onSuccess: (response) => {
      queryClient.clear();
      saveSession(response);
      const target = response.user.role === 'admin' ? '/admin-dashboard' : '/dashboard';
      void navigate({ to: target, replace: true });
      window.setTimeout(() => {
        const path = window.location.pathname;
        if (path === '/signin' || path === '/') window.location.assign(target);
      }, REDIRECT_FALLBACK_MS);
    },
    onError: (error) => {
      window.alert(error instanceof ApiError ? error.serverError ?? 'Sign in failed' : 'Network error. Please try again.');
    },
  });
}
