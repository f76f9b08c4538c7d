import { describe, expect, it } from 'vitest';
import type { TimelineEntryDto } from '../../api/contract';
import { ambulanceBody, emptyAmbulanceForm } from './ambulances/ambulanceForm';
import { editCaseBody } from './cases/editCaseForm';
import { actionText, actorText, changesOf } from './cases/timelineText';
import { emptyOperatorForm, genderListText, missingFields, operatorBody, shiftText } from './operators/operatorForm';
import { linkLabel } from './outbox/outboxText';

describe('operator form', () => {
  it('sends shift and gender as numbers, or null when empty', () => {
    const body = operatorBody({ ...emptyOperatorForm, name: ' Asha ', email: 'a@x.test', shift: '2', gender: '0' });
    expect(body).toMatchObject({ name: 'Asha', role: 'operator', shift: 2, gender: 0 });
    expect(operatorBody(emptyOperatorForm)).toMatchObject({ shift: null, gender: null });
  });
  it('requires name, email, role, shift and gender', () => {
    expect(missingFields(emptyOperatorForm)).toEqual(['name', 'email', 'shift', 'gender']);
  });
  it('lists gender as Male for 0 and Female otherwise, shifts by name', () => {
    expect([0, 1, 2].map(genderListText)).toEqual(['Male', 'Female', 'Female']);
    expect([1, 2, 3].map(shiftText)).toEqual(['Morning', 'Evening', 'Night']);
  });
});

describe('ambulance and case forms', () => {
  it('a new ambulance starts available; operators send only the status', () => {
    expect(emptyAmbulanceForm.status).toBe('available');
    expect(ambulanceBody({ license_plate: ' AB 1 ', status: 'maintenance', email: '', capability: 'als' }, false)).toEqual({ license_plate: 'AB 1', status: 'maintenance', email: null, capability: 'als' });
    expect(ambulanceBody({ license_plate: 'AB 1', status: 'busy', email: 'd@x.test', capability: 'als' }, true)).toEqual({ status: 'busy' });
  });
  it('the edit-case body carries the ambulance id as a number, or null', () => {
    const base = { patientName: 'P', email: 'p@x.test', description: '', status: 'closed' };
    expect(editCaseBody({ ...base, ambulance_id: '7' }).ambulance_id).toBe(7);
    expect(editCaseBody({ ...base, ambulance_id: '' }).ambulance_id).toBeNull();
  });
});

describe('case timeline text', () => {
  const entry = (e: Partial<TimelineEntryDto>): TimelineEntryDto => ({
    id: 1, case_id: 'c', action: 'updated', actor_type: 'user', actor_id: 2, before: null, after: null, created_at: '2026-01-01T00:00:00Z', ...e,
  });
  it('shows before → after per field, ambulances by plate', () => {
    const changes = changesOf(entry({ before: { status: 'active', ambulance_id: 7 }, after: { status: 'closed', ambulance_id: null } }), (id) => (id === 7 ? 'TS09 EA 1007' : undefined));
    expect(changes).toEqual([
      { field: 'Status', before: 'active', after: 'closed' },
      { field: 'Ambulance', before: 'TS09 EA 1007', after: '—' },
    ]);
  });
  it('a creation lists only filled-in fields', () => {
    expect(changesOf(entry({ action: 'created', after: { status: 'active', case_type: null } }), () => undefined))
      .toEqual([{ field: 'Status', before: undefined, after: 'active' }]);
  });
  it('names the actor', () => {
    expect(actorText(entry({}), (id) => (id === 2 ? 'Operator' : undefined))).toBe('Operator');
    expect(actorText(entry({ actor_id: 9 }), () => undefined)).toBe('Staff #9');
    expect(actorText(entry({ actor_type: 'patient', actor_id: null }), () => undefined)).toBe('Patient');
  });
  it('audit entries: a staff read of the location and its deletion by retention', () => {
    expect(actionText('location.viewed')).toBe('Location viewed');
    expect(actionText('location.redacted')).toBe('Location deleted');
    expect(actionText('updated')).toBe('Case updated'); // words, not keys
    const viewed = changesOf(entry({ action: 'location.viewed', after: { location_updated_at: '2026-01-01T10:30:00Z' } }), () => undefined);
    expect(viewed).toEqual([{ field: 'Position shared', before: undefined, after: expect.stringMatching(/2026/) }]);
    expect(actorText(entry({ action: 'location.redacted', actor_type: 'system', actor_id: null }), () => undefined)).toBe('System');
  });
});

describe('outbox links', () => {
  it('names links by what they open', () => {
    expect(linkLabel('http://h/location/abc')).toBe('Share-location link');
    expect(linkLabel('http://h/track/3?t=x')).toBe('Tracking link');
    expect(linkLabel('http://h/driver/3?t=x')).toBe('Driver link');
  });
});
