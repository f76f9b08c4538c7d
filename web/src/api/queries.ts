import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from './client';
import type { ProfileResponse } from './contract';

/** queryOptions factories: the single source of query keys. */
export const queries = {
  profile: () =>
    queryOptions({
      queryKey: ['auth', 'profile'] as const,
      queryFn: ({ signal }) => apiFetch<ProfileResponse>('/api/auth/profile', { signal }),
      staleTime: 60_000,
    }),
};
