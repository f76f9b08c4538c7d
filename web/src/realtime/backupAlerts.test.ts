import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../api/queryClient';
import type { BackupAlert } from '../api/contract';
import { queries } from '../api/queries';
import { addBackupAlert, backupKey, dropBackupAlerts, noteBackupRequest } from './backupAlerts';

const alert = (minute: number, over: Partial<BackupAlert> = {}): BackupAlert => ({
  case_id: 'c1', priority: 2, ambulance_id: 3, license_plate: 'P3', note: null, at: `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`, ...over,
});

describe('the held requests for backup', () => {
  it('hold each request once, oldest first, at most the bound', () => {
    expect(addBackupAlert(undefined, alert(5))).toEqual([alert(5)]);
    expect(addBackupAlert([alert(5)], alert(5))).toEqual([alert(5)]);
    expect(addBackupAlert([alert(5)], alert(2))).toEqual([alert(2), alert(5)]);
    expect(addBackupAlert([alert(1), alert(2)], alert(3), 2)).toEqual([alert(2), alert(3)]);
  });
  it('are written to and dropped from the cache every screen reads', () => {
    const qc = createQueryClient();
    noteBackupRequest(qc, alert(1));
    noteBackupRequest(qc, alert(2, { case_id: 'c2' }));
    dropBackupAlerts(qc, [backupKey(alert(1))]);
    expect(qc.getQueryData(queries.backupAlerts().queryKey)).toEqual([alert(2, { case_id: 'c2' })]);
  });
});
