import type { QueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import { trackedAmbulance } from '../../api/queries';
import { linkGone } from '../public/useTrackedPosition';
import type { DestinationInput, DestinationResponse, HospitalSuggestionsResponse, LatLon, PrealertBody, PrealertResponse, UnitStatusAck } from '../../api/contract';
import type { DriverFix } from './positionQueue';
import type { UnitPress } from './unitSteps';
import type { BackupAck, BackupInput } from './backupSender';

/** The REST fallback: POST /api/ambulances/{id}/position?t=DRIVER_TOKEN (no sign-in; the link is the permission). */
export const postPosition = (ambulanceId: string, token: string, fix: DriverFix) =>
  apiFetch<{ ok: boolean; latest: boolean }>(
    `/api/ambulances/${encodeURIComponent(ambulanceId)}/position?t=${encodeURIComponent(token)}`,
    { method: 'POST', body: fix, auth: false },
  );

/** A step press over REST: POST /api/ambulances/{id}/unit-status?t=DRIVER_TOKEN with its press time. */
export const postUnitStatus = (ambulanceId: string, token: string, press: UnitPress) =>
  apiFetch<UnitStatusAck>(
    `/api/ambulances/${encodeURIComponent(ambulanceId)}/unit-status?t=${encodeURIComponent(token)}`,
    { method: 'POST', body: press, auth: false },
  );

/** A request for backup over REST: POST /api/ambulances/{id}/backup?t=DRIVER_TOKEN. */
export const postBackup = (ambulanceId: string, token: string, input: BackupInput) =>
  apiFetch<BackupAck>(
    `/api/ambulances/${encodeURIComponent(ambulanceId)}/backup?t=${encodeURIComponent(token)}`,
    { method: 'POST', body: input, auth: false },
  );

/** High accuracy, a fresh fix every time, 15 s for each. */
export const DRIVER_GEOLOCATION: PositionOptions = { enableHighAccuracy: true, maximumAge: 0, timeout: 15_000 };

/** localStorage when the browser lets the page use it. */
export function pageStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Whether the driver link has stopped working, asked afresh (its case is over when the tracking answer is gone). */
export async function driverLinkClosed(qc: QueryClient, ambulanceId: string, token: string): Promise<boolean> {
  try {
    await qc.fetchQuery({ ...trackedAmbulance(ambulanceId, token), staleTime: 0 });
    return false;
  } catch (error) {
    return linkGone(error);
  }
}

/** Hospitals ranked from where the crew is, for the call's needs: GET /api/hospitals/suggestions?…&t=DRIVER_TOKEN. */
export const fetchHospitalSuggestions = (token: string, from: LatLon, needs: readonly string[], signal?: AbortSignal) =>
  apiFetch<HospitalSuggestionsResponse>(
    `/api/hospitals/suggestions?latitude=${from.latitude}&longitude=${from.longitude}${needs.length ? `&needs=${needs.join(',')}` : ''}&t=${encodeURIComponent(token)}`,
    { auth: false, signal },
  );

/** Where the unit takes its patient: POST /api/cases/{id}/assignments/{assignmentId}/destination?t=DRIVER_TOKEN. */
export const postDestination = (token: string, caseId: string, assignmentId: number, body: DestinationInput) =>
  apiFetch<DestinationResponse>(
    `/api/cases/${encodeURIComponent(caseId)}/assignments/${assignmentId}/destination?t=${encodeURIComponent(token)}`,
    { method: 'POST', body, auth: false },
  );

/** The ATMIST pre-alert to that hospital: POST /api/cases/{id}/assignments/{assignmentId}/prealert?t=DRIVER_TOKEN. */
export const postPrealert = (token: string, caseId: string, assignmentId: number, body: PrealertBody) =>
  apiFetch<PrealertResponse>(
    `/api/cases/${encodeURIComponent(caseId)}/assignments/${assignmentId}/prealert?t=${encodeURIComponent(token)}`,
    { method: 'POST', body, auth: false },
  );
