import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import type { Write } from './mutations';

/**
 * Runs one of `mutations` with TanStack's useMutation: the write's request, and its stale
 * lists refetched after it (not awaited: the mutation ends when the server answers). The
 * screen's own callbacks run first.
 */
export function useApiMutation<TVars, TData>(
  w: Write<TVars, TData>,
  options: Omit<UseMutationOptions<TData, Error, TVars>, 'mutationFn'> = {},
) {
  const qc = useQueryClient();
  const refresh = () => {
    for (const queryKey of w.invalidates) void qc.invalidateQueries({ queryKey });
  };
  return useMutation<TData, Error, TVars>({
    ...options,
    mutationFn: (vars) => w.request(vars, qc),
    onSuccess: (...args) => {
      const result = options.onSuccess?.(...args);
      if (!w.invalidateOnError) refresh();
      return result;
    },
    onSettled: (...args) => {
      const result = options.onSettled?.(...args);
      if (w.invalidateOnError) refresh();
      return result;
    },
  });
}
