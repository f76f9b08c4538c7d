import type { QueryClient } from '@tanstack/react-query';
import type { PrealertAckNotice, PrealertLateAlert } from '../api/contract';
import { queries } from '../api/queries';

/** Past this many held late pre-alerts the oldest are dropped: a tab left open for days stays bounded. */
export const MAX_PREALERT_ALERTS = 50;

/** `prealert.late` into the cache, once per pre-alert (a reconnect or a second node may tell it again). */
export function notePrealertLate(qc: QueryClient, alert: PrealertLateAlert, max = MAX_PREALERT_ALERTS): void {
  qc.setQueryData<PrealertLateAlert[]>(queries.prealertAlerts().queryKey, (list = []) =>
    (list.some((a) => a.prealert_id === alert.prealert_id) ? list : [...list, alert].slice(-max)));
}

/** The hospital acknowledged (`prealert.acknowledged`), or a dispatcher dismissed it: the alert goes from every screen. */
export function dropPrealertAlert(qc: QueryClient, ack: Pick<PrealertAckNotice, 'prealert_id'>): void {
  qc.setQueryData<PrealertLateAlert[]>(queries.prealertAlerts().queryKey, (list) => list?.filter((a) => a.prealert_id !== ack.prealert_id));
}
