import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, newIdempotencyKey } from '../../api/client';
import type { LiveLocationResponse } from '../../api/contract';
import { operatorIdByEmail, queries } from '../../api/queries';
import { useSession } from '../../auth/useSession';
import { useToast } from '../../layout/toast';
import { casePayload, dispatchErrorText, shareLinkFor, type DispatchValues } from './dispatchForm';

/**
 * Dispatch: look up the operator id by the session's e-mail, then create the case through
 * the e-mail/location service. `onDispatched` gets the patient's share-location link.
 */
export function useDispatchCase(onDispatched: (shareLink: string) => void) {
  const email = useSession()?.email;
  const qc = useQueryClient();
  const toast = useToast();

  return useMutation({
    mutationFn: async (values: DispatchValues) => {
      // SPEC §7: the lookup answers nothing on failure; the server then takes the signed-in operator.
      const operatorId = email ? await qc.fetchQuery(operatorIdByEmail(email)).catch(() => undefined) : undefined;
      // The server assigns the ambulance atomically in the same transaction as the case
      // (409 if it was taken meanwhile, nothing written). The old app's separate
      // PUT {status:'busy'} and its rollback to 'available' on failure are therefore gone.
      return apiFetch<LiveLocationResponse>('/live-location', { method: 'POST', body: casePayload(values, operatorId), idempotencyKey: newIdempotencyKey() });
    },
    onSuccess: ({ caseId, locationLink }) => {
      toast('Emergency case created and ambulance assigned successfully!', 'success');
      onDispatched(shareLinkFor(caseId, locationLink));
    },
    onError: (error) => toast(dispatchErrorText(error), 'error'),
    // Socket events patch the cache already; this covers a tab whose socket is down.
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: queries.cases().queryKey });
      void qc.invalidateQueries({ queryKey: queries.ambulances().queryKey });
    },
  });
}
