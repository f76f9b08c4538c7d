import { describe, expect, it } from 'vitest';
import type { TimelineEntryDto } from '../../../api/contract';
import { actionText, changesOf, entrySummary } from './timelineText';

const entry = (action: string, before: TimelineEntryDto['before'], after: TimelineEntryDto['after']): TimelineEntryDto => ({
  id: 1, case_id: 'c', action, actor_type: 'user', actor_id: 1, created_at: '2026-01-01T10:00:00.000Z', before, after,
});
const plateOf = (id: number) => (id === 7 ? 'TS09 EA 1007' : undefined);
const lines = (e: TimelineEntryDto) => changesOf(e, plateOf).map((c) => `${c.field}: ${[c.before, c.after].filter((v) => v !== undefined).join(' → ')}`);

describe('the case timeline in words', () => {
  it('names every field in words, never by its key, and shows an ambulance by its plate', () => {
    const sent = entry('tracking', null, { ambulance_id: 7, patient_email: 'pat@example.com', driver_email: 'driver7@lifeline.test' });
    expect(lines(sent)).toEqual(['Ambulance: TS09 EA 1007', 'Patient e-mail: pat@example.com', 'Driver e-mail: driver7@lifeline.test']);
    expect(lines(entry('updated', { dispatched_at: null }, { dispatched_at: 'x' }))[0]).toMatch(/^Dispatched at: /);
    for (const action of ['created', 'updated', 'tracking', 'location', 'deleted', 'location.viewed', 'unit.status', 'unit.corrected', 'unit.added', 'unit.cancelled', 'backup.requested']) {
      expect(actionText(action)).toMatch(/^[A-Z][a-z]+( [a-z-]+)*$/);
    }
    expect(actionText('tracking')).toBe('Tracking links sent');
  });

  it('says in one sentence which unit joined the call, which was stood down and why, and who asked for backup', () => {
    const names = () => 'Olive Operator';
    const t = (iso: string) => iso.slice(11, 19);
    const added = entry('unit.added', null, { assignment_id: 4, ambulance_id: 8, license_plate: 'TS09 EA 1008', capability: 'responder' });
    expect(entrySummary(added, names, t)).toBe('TS09 EA 1008 (Car — cannot convey) added to the call — by Olive Operator');
    expect(lines(added)).toEqual([]);
    const down = entry('unit.cancelled', { status: 'en_route' }, { license_plate: 'TS09 EA 1002', status: 'cancelled', reason: 'first crew has it' });
    expect(entrySummary(down, names, t)).toBe('TS09 EA 1002 stood down from En route — by Olive Operator — first crew has it');
    const backup = { ...entry('backup.requested', null, { license_plate: 'TS09 EA 1003', note: 'two patients' }), actor_type: 'driver' as const, actor_id: null };
    expect(entrySummary(backup, names, t)).toBe('TS09 EA 1003 asked for backup — by its crew — two patients');
  });

  it('says which call a diverted unit was taken for, and from, by its short id', () => {
    const requeued = entry('updated', { status: 'active', ambulance_id: 7, unit_status: 'en_route' },
      { status: 'pending', ambulance_id: null, unit_status: 'cancelled', diverted_to: '0f3c9a12-1111-4222-8333-444455556666' });
    expect(lines(requeued)).toEqual(['Status: active → pending', 'Ambulance: TS09 EA 1007 → —', 'Unit status: En route → Cancelled', 'Unit taken for call: #0f3c9a12']);
    expect(lines(entry('updated', { status: 'pending' }, { status: 'active', diverted_from: 'ab12cd34-1111-4222-8333-444455556666' })))
      .toEqual(['Status: pending → active', 'Unit taken from call: #ab12cd34']);
  });

  it('never lists a change from a value to the same value (entries recorded before the server stopped writing them)', () => {
    const share = entry('location', { latitude: 17.4, longitude: 78.45, accuracy: 20 }, { latitude: 17.4, longitude: 78.5, accuracy: 20 });
    expect(lines(share)).toEqual(['Longitude: 78.45 → 78.5']);
  });

  it('shows the whole new position of a share that changed only part of it', () => {
    const share = entry('location', { accuracy: 20 }, { latitude: 17.4, longitude: 78.45, accuracy: 12 });
    expect(lines(share)).toEqual(['Latitude: 17.4', 'Longitude: 78.45', 'Accuracy: 20 → 12']);
  });
});

describe("the call's life on the timeline", () => {
  const nameOf = (id: number) => (id === 1 ? 'Dana Dispatcher' : undefined);
  const timeOf = (iso: string) => iso.slice(11, 19);
  const step = (actor: 'user' | 'driver') => ({
    ...entry('unit.status', { status: 'dispatched' }, { status: 'en_route', at: '2026-01-01T10:02:13.000Z', assignment_id: 3, ambulance_id: 7, license_plate: 'TS09 EA 1007' }),
    actor_type: actor, actor_id: actor === 'user' ? 1 : null,
  });

  it("says who set a unit's step and when: the driver's link or the staff member by name", () => {
    expect(entrySummary(step('driver'), nameOf, timeOf)).toBe('TS09 EA 1007 En route — by driver link at 10:02:13');
    expect(entrySummary(step('user'), nameOf, timeOf)).toBe('TS09 EA 1007 En route — by Dana Dispatcher at 10:02:13');
    expect(changesOf(step('user'), plateOf)).toEqual([]);
  });

  it('says which time was corrected, from what to what, and why', () => {
    const fix = entry('unit.corrected', { on_scene_at: '2026-01-01T10:40:00.000Z' }, { on_scene_at: '2026-01-01T10:38:30.000Z', reason: 'crew radioed first', assignment_id: 3 });
    expect(entrySummary(fix, nameOf, timeOf)).toBe('On scene time corrected from 10:40:00 to 10:38:30 — crew radioed first');
    expect(changesOf(fix, plateOf)).toEqual([]);
  });

  it('shows priority and unit status changes of an update in words', () => {
    const upd = entry('updated', { priority: 3, unit_status: 'on_scene', status: 'active' }, { priority: 1, unit_status: 'cleared', status: 'resolved' });
    expect(lines(upd)).toEqual(['Priority: 3 → 1', 'Unit status: On scene → Cleared', 'Status: active → resolved']);
    expect(entrySummary(upd, nameOf, timeOf)).toBeNull();
  });
});
