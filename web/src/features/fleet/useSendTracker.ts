import { useCallback, useRef, useState } from 'react';
import { useSnackbar, type VariantType } from 'notistack';
import { ApiError } from '../../api/client';
import type { AmbulanceDto, CaseDto } from '../../api/contract';
import { mutations } from '../../api/mutations';
import { activeCaseFor } from '../../domain/fleetRules';
import { patientNameOf } from '../../domain/caseRules';

/** Toasts on the fleet screen close after 3 s (SPEC §9), top-right like the operator shell. */
const FLEET_TOAST = { autoHideDuration: 3000, anchorOrigin: { vertical: 'top', horizontal: 'right' } } as const;

export function useFleetToast() {
  const { enqueueSnackbar } = useSnackbar();
  return useCallback((message: string, variant: VariantType) => enqueueSnackbar(message, { variant, ...FLEET_TOAST }), [enqueueSnackbar]);
}

/**
 * Send Tracker: asks the server to mail the patient a tracking link and the driver a
 * driver link for the ambulance's active case. The server mails the addresses it holds
 * (no fallback address here: an ambulance without a driver e-mail gets the server's 422).
 */
export function useSendTracker(ambulances: AmbulanceDto[], activeCases: CaseDto[]) {
  const toast = useFleetToast();
  const [sending, setSending] = useState<ReadonlySet<number>>(() => new Set());
  const inFlight = useRef(new Set<number>());

  const mark = (id: number, on: boolean) => {
    if (on) inFlight.current.add(id);
    else inFlight.current.delete(id);
    setSending(new Set(inFlight.current));
  };

  const send = async (ambulanceId: number) => {
    if (inFlight.current.has(ambulanceId)) return;
    const ambulance = ambulances.find((a) => a.id === ambulanceId);
    if (!ambulance) {
      toast('Ambulance details not found.', 'error');
      return;
    }
    const activeCase = activeCaseFor(ambulance, activeCases);
    if (!activeCase) {
      toast('No active case assigned to this ambulance.', 'warning');
      return;
    }
    mark(ambulanceId, true);
    try {
      const answer = await mutations.sendTracker.request({
        caseId: activeCase.id,
        ambulanceId: ambulance.id,
        patientEmail: activeCase.email ?? '',
        driverEmail: ambulance.email ?? '',
      });
      const patient = `${patientNameOf(activeCase)} (${answer.patientEmail || activeCase.email})`;
      toast(`Tracking emails sent successfully! Patient: ${patient}, Ambulance: ${ambulance.license_plate}`, 'success');
    } catch (error) {
      if (error instanceof ApiError) {
        toast(`Failed to send tracking emails: ${error.serverError ?? 'Unknown error'}`, 'error');
      } else {
        toast('Network error: Failed to connect to tracking system.', 'error');
      }
    } finally {
      mark(ambulanceId, false);
    }
  };

  return { send, isSending: (id: number) => sending.has(id) };
}
