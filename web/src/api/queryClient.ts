import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/**
 * Client errors (4xx) are answers, not glitches: they are not retried, except 429 ("you hold your share
 * of the server's report slots; try again when one is done"), which is a wait like a 503's.
 */
export function shouldRetry(failureCount: number, error: unknown) {
  if (error instanceof ApiError && error.status < 500 && error.status !== 429) return false;
  return failureCount < 2;
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
