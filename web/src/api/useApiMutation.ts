import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { type Write, settleWrite } from './mutations';

/**
 * Runs one of `mutations` with TanStack's useMutation: the write's request, then its answer put
 * into the cache and its stale lists refetched (settleWrite; not awaited: the mutation ends when
 * the server answers). The screen's own callbacks run first.
 */
export function useApiMutation<TVars, TData>(
  w: Write<TVars, TData>,
  options: Omit<UseMutationOptions<TData, Error, TVars>, 'mutationFn'> = {},
) {
  const qc = useQueryClient();
  return useMutation<TData, Error, TVars>({
    ...options,
    mutationFn: (vars) => w.request(vars, qc),
    onSuccess: (data, vars, ...rest) => {
      const result = options.onSuccess?.(data, vars, ...rest);
      settleWrite(qc, w, { data, vars });
      return result;
    },
    onError: (error, ...rest) => {
      const result = options.onError?.(error, ...rest);
      settleWrite(qc, w, { error });
      return result;
    },
  });
}
