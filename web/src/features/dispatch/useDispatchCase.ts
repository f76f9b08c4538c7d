import { ApiError } from '../../api/client';
import { mutations } from '../../api/mutations';
import { useApiMutation } from '../../api/useApiMutation';
import { useSession } from '../../auth/useSession';
import { priorityTag } from '../../domain/callLife';
import { useToast } from '../../layout/toast';
import { casePayload, dispatchErrorText, shareLinkFor, type DispatchMode, type DispatchValues } from './dispatchForm';

/** A call just created, as the share-link panel names it: whose link it is, never the next call's. */
export interface CreatedCall {
  /** The patient's share-location link. */
  link: string;
  caseId: string;
  patientName: string;
  /** Queued (pending), not dispatched. */
  queued: boolean;
}

/** The plan's second unit, sent once the call exists ("send both"). */
export interface AlsoSend { ambulanceId: number; plate: string }

/**
 * Dispatch or queue: creates the case (mutations.dispatchCase, with the operator looked up by
 * the session's e-mail). `onDispatched` gets the call with the patient's share-location link (a
 * queued call has one too: the patient can share while the call waits). With `also`, a dispatched
 * call then gets the plan's second unit (mutations.addUnit); a refusal there (the unit was taken
 * meanwhile) leaves the call with its first unit and says so.
 */
export function useDispatchCase(onDispatched: (created: CreatedCall) => void) {
  const email = useSession()?.email;
  const toast = useToast();

  const dispatch = useApiMutation(mutations.dispatchCase, {
    onSuccess: ({ caseId, case: created, locationLink }) => {
      toast(created.status === 'pending'
        ? `Call queued — ${priorityTag(created.priority)}, waiting for an ambulance`
        : 'Emergency case created and ambulance assigned successfully!', 'success');
      onDispatched({ link: shareLinkFor(caseId, locationLink), caseId, patientName: created.patient_name || created.patientName, queued: created.status === 'pending' });
    },
    onError: (error) => toast(dispatchErrorText(error), 'error'),
  });
  const addUnit = useApiMutation(mutations.addUnit);
  const sendAlso = (caseId: string, also: AlsoSend) => addUnit.mutate({ caseId, ambulanceId: also.ambulanceId }, {
    onSuccess: () => toast(`${also.plate} also sent to the call`, 'success'),
    onError: (error) => toast(`${also.plate} was not sent: ${error instanceof ApiError && error.serverError ? error.serverError : 'add it from the call\'s card'}`, 'error'),
  });
  return {
    isPending: dispatch.isPending,
    /** Which submit is running, so only its button shows the spinner. */
    mode: dispatch.variables?.body.status === 'pending' ? 'queue' as const : 'dispatch' as const,
    mutate: (values: DispatchValues, how: { mode: DispatchMode; callReceivedAt: string | null; also?: AlsoSend | null }, options?: Parameters<typeof dispatch.mutate>[1]) =>
      dispatch.mutate({ body: casePayload(values, undefined, how), operatorEmail: email }, {
        ...options,
        onSuccess: (...args) => {
          options?.onSuccess?.(...args);
          if (how.mode === 'dispatch' && how.also) sendAlso(args[0].caseId, how.also);
        },
      }),
  };
}
