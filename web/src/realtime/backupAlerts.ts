import type { QueryClient } from '@tanstack/react-query';
import type { BackupAlert } from '../api/contract';
import { queries } from '../api/queries';

/** Past this many held requests the oldest are dropped: a tab left open for days stays bounded. */
export const MAX_BACKUP_ALERTS = 50;

/** One request's identity: the same event heard twice (a reconnect, two nodes) is one request. */
export const backupKey = (a: Pick<BackupAlert, 'case_id' | 'ambulance_id' | 'at'>) => `backup:${a.case_id}:${a.ambulance_id}:${a.at}`;

/** The held list with `alert` added once, oldest first, at most MAX_BACKUP_ALERTS. */
export function addBackupAlert(list: readonly BackupAlert[] | undefined, alert: BackupAlert, max = MAX_BACKUP_ALERTS): BackupAlert[] {
  const held = list ?? [];
  const key = backupKey(alert);
  if (held.some((a) => backupKey(a) === key)) return [...held];
  return [...held, alert].sort((a, b) => a.at.localeCompare(b.at)).slice(-max);
}

/** The socket's `backup.requested` into the cache, where the alerts and the call's card read it. */
export function noteBackupRequest(qc: QueryClient, alert: BackupAlert): void {
  qc.setQueryData<BackupAlert[]>(queries.backupAlerts().queryKey, (list) => addBackupAlert(list, alert));
}

/** Forgets requests (dismissed, or answered by a unit added): every screen drops them at once. */
export function dropBackupAlerts(qc: QueryClient, keys: readonly string[]): void {
  if (!keys.length) return;
  qc.setQueryData<BackupAlert[]>(queries.backupAlerts().queryKey, (list) => list?.filter((a) => !keys.includes(backupKey(a))));
}
