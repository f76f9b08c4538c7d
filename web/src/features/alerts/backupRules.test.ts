import { describe, expect, it } from 'vitest';
import type { AssignmentDto, BackupAlert } from '../../api/contract';
import { caseDto } from '../../testing/dtos';
import { backupAnswered, backupCallAlert, backupChoice, backupCardText, backupOrder, backupText, backupTitle, newBackups, openBackups, withBackups } from './backupRules';

const alert = (over: Partial<BackupAlert> = {}): BackupAlert => ({
  case_id: 'c1', priority: 1, ambulance_id: 3, license_plate: 'TS09 EA 1003', note: 'second patient', at: '2026-01-01T00:10:00.000Z', ...over,
});
const unit = (id: number, ambulanceId: number, dispatchedAt: string) => ({ id, ambulance_id: ambulanceId, dispatched_at: dispatchedAt, status: 'dispatched' }) as AssignmentDto;
const asking = caseDto({ id: 'c1', status: 'active', assignments: [unit(1, 3, '2026-01-01T00:01:00.000Z')] });

describe('a crew\'s request for backup', () => {
  it('asks until a unit is sent to the call after it, or the call ends', () => {
    expect(backupAnswered(alert(), [asking])).toBe(false);
    expect(backupAnswered(alert(), undefined)).toBe(false);
    const helped = { ...asking, assignments: [...asking.assignments, unit(2, 5, '2026-01-01T00:11:00.000Z')] };
    expect(backupAnswered(alert(), [helped])).toBe(true);
    // A unit sent before the request does not answer it.
    const before = { ...asking, assignments: [...asking.assignments, unit(2, 5, '2026-01-01T00:05:00.000Z')] };
    expect(backupAnswered(alert(), [before])).toBe(false);
    expect(backupAnswered(alert(), [{ ...asking, status: 'resolved' }])).toBe(true);
    expect(backupAnswered(alert(), [])).toBe(true);
    expect(openBackups([alert(), alert({ case_id: 'gone' })], [asking])).toEqual([alert()]);
  });
  it('shows a request the call carries though this tab never heard it (opened later, or offline then), once', () => {
    const carried = { ...asking, backup_request: alert() };
    expect(openBackups([], [carried])).toEqual([alert()]);
    expect(openBackups([alert()], [carried])).toEqual([alert()]);
    const helped = { ...carried, assignments: [...asking.assignments, unit(2, 5, '2026-01-01T00:11:00.000Z')] };
    expect(openBackups(undefined, [helped])).toEqual([]);
  });
  it('sends in one action the first unit ranked for the call that meets its need, else the first, else none', () => {
    const s = (ambulance_id: number, meets_need: boolean) => ({ ambulance_id, license_plate: `TS09 EA 100${ambulance_id}`, meets_need });
    expect(backupChoice([s(8, false), s(4, true), s(1, true)])?.ambulance_id).toBe(4);
    expect(backupChoice([s(8, false), s(7, false)])?.ambulance_id).toBe(8);
    expect(backupChoice([])).toBeNull();
  });
  it('says the call, the crew and its note', () => {
    expect(backupText(alert(), 'Ravi Kumar')).toBe('Backup asked for the P1 call of Ravi Kumar by TS09 EA 1003: second patient');
    expect(backupText(alert({ note: null, priority: 3 }), null)).toBe('Backup asked for the P3 call by TS09 EA 1003');
    expect(backupCardText(alert())).toBe('Backup asked by TS09 EA 1003: second patient');
    expect(backupCardText(alert({ note: '  ' }))).toBe('Backup asked by TS09 EA 1003');
    expect(backupTitle(alert())).toBe('Backup for P1 call — TS09 EA 1003');
    expect(backupCallAlert(alert(), null)).toMatchObject({ reason: 'backup', priority: 1, caseId: 'c1', ambulanceId: 3, key: 'backup:c1:3:2026-01-01T00:10:00.000Z' });
  });
  it('rings once per request, never for what was held before the watch began', () => {
    const first = newBackups(null, [alert()]);
    expect(first.fresh).toEqual([]);
    const later = alert({ at: '2026-01-01T00:12:00.000Z' });
    const second = newBackups(first.seen, [alert(), later]);
    expect(second.fresh).toEqual([later]);
    expect(newBackups(second.seen, [alert(), later]).fresh).toEqual([]);
  });
  it('comes first among the notices of its priority, most urgent first', () => {
    const p3 = alert({ case_id: 'c3', priority: 3 });
    expect(backupOrder([p3, alert()]).map((a) => a.priority)).toEqual([1, 3]);
    const notices = [{ key: 'waiting', priority: 1 as const }, { key: 'news', priority: 2 as const }];
    expect(withBackups([p3, alert()], notices).map((e) => e.key)).toEqual(['backup:c1:3:2026-01-01T00:10:00.000Z', 'waiting', 'news', 'backup:c3:3:2026-01-01T00:10:00.000Z']);
  });
});
