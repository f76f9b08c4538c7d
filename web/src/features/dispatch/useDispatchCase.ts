import { mutations } from '../../api/mutations';
import { useApiMutation } from '../../api/useApiMutation';
import { useSession } from '../../auth/useSession';
import { useToast } from '../../layout/toast';
import { casePayload, dispatchErrorText, shareLinkFor, type DispatchValues } from './dispatchForm';

/**
 * Dispatch: creates the case (mutations.dispatchCase, with the operator looked up by the
 * session's e-mail). `onDispatched` gets the patient's share-location link.
 */
export function useDispatchCase(onDispatched: (shareLink: string) => void) {
  const email = useSession()?.email;
  const toast = useToast();

  const dispatch = useApiMutation(mutations.dispatchCase, {
    onSuccess: ({ caseId, locationLink }) => {
      toast('Emergency case created and ambulance assigned successfully!', 'success');
      onDispatched(shareLinkFor(caseId, locationLink));
    },
    onError: (error) => toast(dispatchErrorText(error), 'error'),
  });
  return {
    isPending: dispatch.isPending,
    mutate: (values: DispatchValues, options?: Parameters<typeof dispatch.mutate>[1]) =>
      dispatch.mutate({ body: casePayload(values, undefined), operatorEmail: email }, options),
  };
}
