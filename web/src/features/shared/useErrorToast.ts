import { useCallback } from 'react';
import { useToast } from '../../layout/toast';
import { useNoticeOnce } from './useNoticeOnce';

/**
 * Shows one error toast per failed fetch: `at` is the query's errorUpdatedAt, so a new
 * failure (a refresh that fails again) toasts again, a re-render does not.
 */
export function useErrorToast(error: unknown, at: number, message: (error: unknown) => string) {
  const toast = useToast();
  const show = useCallback((text: string) => toast(text, 'error'), [toast]);
  useNoticeOnce(error ? at : 0, error ? message(error) : null, show);
}
