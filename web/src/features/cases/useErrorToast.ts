import { useEffect, useRef } from 'react';
import { useToast } from '../../layout/toast';

/**
 * Shows one error toast per failed fetch: `at` is the query's errorUpdatedAt, so a new
 * failure (a refresh that fails again) toasts again, a re-render does not.
 */
export function useErrorToast(error: unknown, at: number, message: (error: unknown) => string) {
  const toast = useToast();
  const shown = useRef(0);
  const text = error ? message(error) : null;
  useEffect(() => {
    if (!text || !at || shown.current === at) return;
    shown.current = at;
    toast(text, 'error');
  }, [text, at, toast]);
}
