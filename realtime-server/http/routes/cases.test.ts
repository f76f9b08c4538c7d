import { beforeAll, describe, expect, it } from 'vitest';
import {
  ISO_TIME, UUID_V4, ambulanceRow, caseEvents, caseRow, dispatchCase, driverOf, outboxFor, plateOf, rowCount, updateCase, userId, writeCounts, shareLocation,
} from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';
import { DEMO } from '../../testing/demoAccounts';

const UNKNOWN_ID = '0b3f5e2a-9c1d-4f6e-8a7b-1c2d3e4f5a6b';

/** Decodes the hex EWKB point of SPEC.md §3 (SRID prefix, longitude first). */
function decodeWkb(hex: string) {
  const prefix = '0101000020E6100000';
  if (!hex.toUpperCase().startsWith(prefix)) return null;
  const b = Buffer.from(hex.slice(prefix.length), 'hex');
  return { longitude: b.readDoubleLE(0), latitude: b.readDoubleLE(8) };
}

describe('GET /api/cases', () => {
  const s = useTestServer();
  let operator: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
  });

  it('answers {cases:[…], counts} with every field of SPEC.md §3', async () => {
    const caseId = await dispatchCase(s, operator, 1, { to: 'ana@example.com', patientName: 'Ana Lima', description: 'Kitchen fire', caseType: 'Fire' });
    const res = await s.api('GET', '/api/cases', { token: operator });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['cases', 'counts']);
    expect(res.body.counts).toEqual({ active: 1, pending: 0, total: 1 });
    expect(res.body.cases).toHaveLength(1);
    const c = res.body.cases[0];
    expect(c).toMatchObject({
      id: caseId, description: 'Kitchen fire', status: 'active', caseType: 'Fire',
      patientName: 'Ana Lima', patient_name: 'Ana Lima', email: 'ana@example.com', patient_email: 'ana@example.com',
      operator_id: await userId(s, 'operator@lifeline.test'), ambulance_id: 1, license_plate: plateOf(1),
      latitude: null, longitude: null, wkb: null,
    });
    expect(c.created_at).toMatch(ISO_TIME);
    expect(c.updated_at).toMatch(ISO_TIME);
    for (const key of ['id', 'description', 'status', 'created_at', 'updated_at', 'email', 'patient_email', 'operator_id', 'latitude', 'longitude', 'wkb', 'patientName', 'patient_name', 'caseType', 'ambulance_id', 'license_plate']) {
      expect(c, key).toHaveProperty(key);
    }
  });

  it('carries the shared location as latitude, longitude and a decodable wkb', async () => {
    const caseId = await dispatchCase(s, operator, 2);
    expect((await shareLocation(s, caseId, { latitude: 17.4, longitude: 78.45 })).status).toBe(200);
    const c = (await s.api('GET', '/api/cases', { token: operator })).body.cases.find((x: any) => x.id === caseId);
    expect(c).toMatchObject({ latitude: 17.4, longitude: 78.45 });
    expect(decodeWkb(c.wkb)).toEqual({ latitude: 17.4, longitude: 78.45 });
  });

  it('lists history (scope=all) newest case first and requires a bearer token', async () => {
    const list = (await s.api('GET', '/api/cases?scope=all', { token: operator })).body.cases;
    expect(list).toHaveLength(2);
    expect(list.map((c: any) => c.created_at)).toEqual([...list.map((c: any) => c.created_at)].sort().reverse());
    expect(await s.api('GET', '/api/cases')).toMatchObject({ status: 401, body: { error: 'Authentication required' } });
  });
});

describe('POST /api/cases', () => {
  const s = useTestServer();
  let operator: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
  });

  const form = (ambulanceId: unknown, extra: Record<string, unknown> = {}) => ({
    patientName: 'Case Form', email: 'form@example.com', description: 'Injury', caseType: 'Fighting', status: 'active', ambulance_id: ambulanceId, ...extra,
  });

  it('creates an active case and takes the ambulance, without the patient\'s e-mail; the crew hears at once', async () => {
    const before = await writeCounts(s);
    const res = await s.api('POST', '/api/cases', { token: operator, body: form('3') });
    expect(res.status).toBe(201);
    expect(res.body.case).toMatchObject({ status: 'active', ambulance_id: 3, license_plate: plateOf(3), patientName: 'Case Form', email: 'form@example.com', caseType: 'Fighting' });
    expect(res.body.case.id).toMatch(UUID_V4);
    expect(res.body.crew).toEqual({ ambulance_id: 3, license_plate: plateOf(3), driver_email: driverOf(3), mailed: true, message: `Driver link sent to ${driverOf(3)}` });
    expect((await ambulanceRow(s, 3)).status).toBe('busy');
    // The created entry, the tracking entry; the driver's mail (their link and the viewer's).
    expect(await writeCounts(s)).toEqual({ ...before, cases: before.cases + 1, case_events: before.case_events + 2, assignments: before.assignments + 1, outbox: before.outbox + 1, track_tokens: before.track_tokens + 2 });
    expect((await outboxFor(s, res.body.case.id)).map((m) => [m.kind, m.to_address])).toEqual([['tracking-driver', driverOf(3)]]);
  });

  it('refuses a busy ambulance with 409 and creates no case', async () => {
    const before = await writeCounts(s);
    const res = await s.api('POST', '/api/cases', { token: operator, body: form(3, { email: 'other@example.com' }) });
    expect(res).toMatchObject({ status: 409, body: { error: `Ambulance ${plateOf(3)} is not available; choose another ambulance` } });
    expect(await writeCounts(s)).toEqual(before);
  });

  it('refuses an unknown ambulance with 422 and a missing patient e-mail with 400', async () => {
    const before = await writeCounts(s);
    expect(await s.api('POST', '/api/cases', { token: operator, body: form(42) }))
      .toMatchObject({ status: 422, body: { error: 'Ambulance 42 does not exist' } });
    expect(await s.api('POST', '/api/cases', { token: operator, body: form(4, { email: undefined }) }))
      .toMatchObject({ status: 400, body: { error: 'to: required' } });
    expect(await writeCounts(s)).toEqual(before);
    expect((await ambulanceRow(s, 4)).status).toBe('available');
  });
});

describe('PUT /api/cases/{id}', () => {
  const s = useTestServer();
  let operator: string;
  let operatorId: number;
  beforeAll(async () => {
    operator = await s.signIn('operator');
    operatorId = await userId(s, DEMO.operator.email);
  });

  it('closing a case frees its ambulance and leaves a timeline row with actor, before and after', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const res = await updateCase(s, operator, caseId, { status: 'closed' });
    expect(res.status).toBe(200);
    expect(res.body.case).toMatchObject({ id: caseId, status: 'closed', ambulance_id: 1 });
    expect(res.body.case.closed_at).toMatch(ISO_TIME);
    expect((await ambulanceRow(s, 1)).status).toBe('available');
    const events = await caseEvents(s, caseId);
    expect(events.map((e) => e.action)).toEqual(['created', 'tracking', 'updated']);
    const e = events[2];
    expect(e).toMatchObject({ actor_type: 'user', actor_id: operatorId });
    // The same entry ends the assignment: the crew never reached the scene, so it is cancelled.
    expect(JSON.parse(e.before)).toEqual({ status: 'active', closed_at: null, unit_status: 'dispatched' });
    expect(JSON.parse(e.after)).toEqual({ status: 'closed', closed_at: res.body.case.closed_at, unit_status: 'cancelled' });
  });

  it('resolving a case frees its ambulance', async () => {
    const caseId = await dispatchCase(s, operator, 2);
    const res = await updateCase(s, operator, caseId, { status: 'resolved' });
    expect(res.status).toBe(200);
    expect(res.body.case.status).toBe('resolved');
    expect((await ambulanceRow(s, 2)).status).toBe('available');
    expect(JSON.parse((await caseEvents(s, caseId)).at(-1).after)).toMatchObject({ status: 'resolved' });
  });

  it('reactivating a case re-takes its ambulance only if it is available (409 otherwise)', async () => {
    const first = await dispatchCase(s, operator, 3);
    expect((await updateCase(s, operator, first, { status: 'closed' })).status).toBe(200);
    const second = await dispatchCase(s, operator, 3);
    const eventsBefore = await rowCount(s, 'case_events');

    const refused = await updateCase(s, operator, first, { status: 'active' });
    expect(refused).toMatchObject({ status: 409, body: { error: `Ambulance ${plateOf(3)} is not available; choose another ambulance` } });
    expect((await caseRow(s, first)).status).toBe('closed');
    expect(await rowCount(s, 'case_events')).toBe(eventsBefore);

    expect((await updateCase(s, operator, second, { status: 'closed' })).status).toBe(200);
    expect((await ambulanceRow(s, 3)).status).toBe('available');
    const again = await updateCase(s, operator, first, { status: 'active' });
    expect(again.status).toBe(200);
    expect(again.body.case).toMatchObject({ status: 'active', closed_at: null, ambulance_id: 3 });
    expect((await ambulanceRow(s, 3)).status).toBe('busy');
    // The reopened case is a new dispatch: its entry, then the links mailed for it.
    const [updated, tracking] = (await caseEvents(s, first)).slice(-2);
    expect(JSON.parse(updated.before)).toMatchObject({ status: 'closed' });
    expect(JSON.parse(tracking.after)).toEqual({ ambulance_id: 3, patient_email: 'patient@example.com', driver_email: driverOf(3) });
  });

  it('reassigning an active case moves busy from the old ambulance to the new one', async () => {
    const caseId = await dispatchCase(s, operator, 4);
    const res = await updateCase(s, operator, caseId, { ambulance_id: '5' });
    expect(res.status).toBe(200);
    expect(res.body.case).toMatchObject({ ambulance_id: 5, license_plate: plateOf(5), status: 'active' });
    expect((await ambulanceRow(s, 4)).status).toBe('available');
    expect((await ambulanceRow(s, 5)).status).toBe('busy');
    const [e, tracking] = (await caseEvents(s, caseId)).slice(-2);
    expect(e).toMatchObject({ action: 'updated', actor_type: 'user', actor_id: operatorId });
    expect(tracking).toMatchObject({ action: 'tracking', actor_type: 'user', actor_id: operatorId });
    expect(JSON.parse(e.before)).toEqual({ ambulance_id: 4, unit_status: 'dispatched' });
    expect(JSON.parse(e.after)).toEqual({ ambulance_id: 5, unit_status: 'cancelled' });
  });

  it('refuses reassigning to a busy ambulance with 409 and changes nothing', async () => {
    const a = await dispatchCase(s, operator, 6);
    await dispatchCase(s, operator, 7);
    const before = await writeCounts(s);
    const res = await updateCase(s, operator, a, { ambulance_id: 7, patientName: 'Changed' });
    expect(res).toMatchObject({ status: 409, body: { error: `Ambulance ${plateOf(7)} is not available; choose another ambulance` } });
    expect(await caseRow(s, a)).toMatchObject({ ambulance_id: 6, patient_name: 'Pat Doe' });
    expect((await ambulanceRow(s, 6)).status).toBe('busy');
    expect((await ambulanceRow(s, 7)).status).toBe('busy');
    expect(await writeCounts(s)).toEqual(before);
  });

  it('records edits of the patient fields with before and after', async () => {
    const caseId = await dispatchCase(s, operator, 8);
    const res = await updateCase(s, operator, caseId, { patientName: 'Pat Two', email: 'PAT2@example.com', description: 'Fall', status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body.case).toMatchObject({ patientName: 'Pat Two', patient_name: 'Pat Two', email: 'pat2@example.com', description: 'Fall' });
    const e = (await caseEvents(s, caseId)).at(-1);
    expect(JSON.parse(e.before)).toEqual({ patient_name: 'Pat Doe', patient_email: 'patient@example.com', description: 'Heart Attack' });
    expect(JSON.parse(e.after)).toEqual({ patient_name: 'Pat Two', patient_email: 'pat2@example.com', description: 'Fall' });
    // The same values again change nothing and leave no row.
    const count = await rowCount(s, 'case_events', { case_id: caseId });
    expect((await updateCase(s, operator, caseId, { patientName: 'Pat Two' })).status).toBe(200);
    expect(await rowCount(s, 'case_events', { case_id: caseId })).toBe(count);
  });

  it('records no change when the Edit Case dialog saves the values the case already has', async () => {
    // What the dialog sends on Update Case: every field, as the form was filled from the case.
    const asTheDialogSends = (c: any) => ({ patientName: c.patientName, email: c.email, description: c.description, status: c.status, ambulance_id: c.ambulance_id });
    const active = await dispatchCase(s, operator, 1, { to: 'Same.Value@Example.com', patientName: 'Sam Same', description: 'Injury' });
    const closed = await dispatchCase(s, operator, 2);
    expect((await updateCase(s, operator, closed, { status: 'closed' })).status).toBe(200);
    for (const caseId of [active, closed]) {
      const c = (await s.api('GET', `/api/cases/${caseId}`, { token: operator })).body.case;
      const before = await caseEvents(s, caseId);
      const res = await updateCase(s, operator, caseId, asTheDialogSends(c));
      expect(res.status).toBe(200);
      expect(res.body.case).toMatchObject({ status: c.status, ambulance_id: c.ambulance_id, updated_at: c.updated_at });
      expect(await caseEvents(s, caseId)).toEqual(before);
    }
  });

  it('refuses an unknown status with 400', async () => {
    const caseId = (await s.ctx.db('cases').first()).id;
    expect(await updateCase(s, operator, caseId, { status: 'archived' }))
      .toMatchObject({ status: 400, body: { error: 'status: must be one of active, closed, pending, resolved' } });
  });

  it('answers 404 for an unknown or non-UUID id', async () => {
    for (const id of [UNKNOWN_ID, 'not-a-uuid', '1']) {
      expect(await s.api('GET', `/api/cases/${id}`, { token: operator })).toMatchObject({ status: 404, body: { error: 'Case not found' } });
      expect(await updateCase(s, operator, id, { status: 'closed' })).toMatchObject({ status: 404, body: { error: 'Case not found' } });
    }
  });
});

describe('a pending call names no ambulance, on create and on edit alike', () => {
  const s = useTestServer();
  let operator: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
  });

  it('refuses one that does with 400 and the message create gives, and changes nothing (issue 26 item 11)', async () => {
    const wanted = { status: 400, body: { error: 'status: a pending call waits without an ambulance; leave the ambulance out or make it active' } };
    expect(await s.api('POST', '/api/cases', { token: operator, body: { to: 'q@example.com', patientName: 'Q', description: 'Fall', status: 'pending', ambulance_id: 5 } }))
      .toMatchObject(wanted);
    const waiting = (await s.api('POST', '/api/cases', { token: operator, body: { to: 'q@example.com', patientName: 'Q', description: 'Fall', status: 'pending' } })).body.case.id;
    const active = await dispatchCase(s, operator, 6);
    for (const caseId of [waiting, active]) {
      const row = await caseRow(s, caseId);
      const entries = (await caseEvents(s, caseId)).length;
      for (const ambulance_id of [5, 6]) expect(await updateCase(s, operator, caseId, { status: 'pending', ambulance_id })).toMatchObject(wanted);
      expect(await caseRow(s, caseId)).toEqual(row);
      expect((await caseEvents(s, caseId)).length).toBe(entries);
    }
    // Without an ambulance, or taking it off, a call waits as before.
    expect(await updateCase(s, operator, waiting, { status: 'pending', ambulance_id: null })).toMatchObject({ status: 200, body: { case: { status: 'pending', ambulance_id: null } } });
    expect(await updateCase(s, operator, active, { status: 'pending', ambulance_id: null })).toMatchObject({ status: 200, body: { case: { status: 'pending', ambulance_id: null } } });
    expect((await ambulanceRow(s, 6)).status).toBe('available');
  });

  it('a call put back in the queue without naming the ambulance lets go of it, so the Edit Case dialog can save it again', async () => {
    const caseId = await dispatchCase(s, operator, 7);
    const back = await updateCase(s, operator, caseId, { status: 'pending' });
    expect(back).toMatchObject({ status: 200, body: { case: { status: 'pending', ambulance_id: null, assignment: { ambulance_id: 7, status: 'cancelled' } } } });
    expect((await ambulanceRow(s, 7)).status).toBe('available');
    // What the dialog sends on save: every field as the case has it.
    const c = back.body.case;
    expect(await updateCase(s, operator, caseId, { patientName: c.patientName, email: c.email, description: `${c.description}, awake`, status: c.status, ambulance_id: c.ambulance_id }))
      .toMatchObject({ status: 200, body: { case: { status: 'pending', ambulance_id: null } } });
  });

});

describe('the timeline of a shared location', () => {
  const s = useTestServer();
  let operator: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
  });

  it('records as before-values only what a new share changes, never a value to the same value', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const at = { latitude: 17.4, longitude: 78.45, accuracy: 20 };
    for (const body of [at, at, { ...at, accuracy: 12 }]) expect((await shareLocation(s, caseId, body)).status).toBe(200);
    const shares = (await caseEvents(s, caseId)).filter((e) => e.action === 'location');
    expect(shares.map((e) => [JSON.parse(e.before), JSON.parse(e.after)])).toEqual([
      [null, at], // the first share: no earlier position
      [null, at], // the same place again: nothing changed, so no before-values
      [{ accuracy: 20 }, { ...at, accuracy: 12 }],
    ]);
  });
});

describe('DELETE /api/cases/{id}', () => {
  const s = useTestServer();
  let operator: string;
  let admin: string;
  beforeAll(async () => {
    [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
  });

  it('is refused to an operator with 403', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const res = await s.api('DELETE', `/api/cases/${caseId}`, { token: operator });
    expect(res).toMatchObject({ status: 403, body: { error: 'Only admins can delete cases' } });
    expect(await caseRow(s, caseId)).toBeDefined();
    expect((await ambulanceRow(s, 1)).status).toBe('busy');
  });

  it('lets an admin delete a case, which frees its ambulance and is kept on the timeline', async () => {
    const caseId = (await s.ctx.db('cases').where({ ambulance_id: 1 }).first()).id;
    const res = await s.api('DELETE', `/api/cases/${caseId}`, { token: admin });
    expect(res).toMatchObject({ status: 200, body: { success: true, id: caseId } });
    expect(await caseRow(s, caseId)).toBeUndefined();
    expect((await ambulanceRow(s, 1)).status).toBe('available');
    const e = (await caseEvents(s, caseId)).at(-1);
    expect(e).toMatchObject({ action: 'deleted', actor_type: 'user', actor_id: await userId(s, 'admin@lifeline.test') });
    expect(JSON.parse(e.before)).toMatchObject({ id: caseId, status: 'active', ambulance_id: 1 });
    // The freed ambulance can be dispatched again.
    expect(await dispatchCase(s, operator, 1)).toMatch(UUID_V4);
  });

  it('answers 404 for an unknown or non-UUID id', async () => {
    const before = await writeCounts(s);
    for (const id of [UNKNOWN_ID, 'nope']) {
      expect(await s.api('DELETE', `/api/cases/${id}`, { token: admin })).toMatchObject({ status: 404, body: { error: 'Case not found' } });
    }
    expect(await writeCounts(s)).toEqual(before);
  });
});

describe('ambulance status against active cases', () => {
  const s = useTestServer();
  let operator: string;
  let admin: string;
  beforeAll(async () => {
    [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
    await dispatchCase(s, operator, 1);
  });

  it("PUT {status:'busy'} on an ambulance already busy on an active case is a harmless no-op", async () => {
    const before = await ambulanceRow(s, 1);
    const res = await s.api('PUT', '/api/ambulances/1', { token: operator, body: { status: 'busy' } });
    expect(res.status).toBe(200);
    expect(res.body.ambulance).toMatchObject({ id: 1, status: 'busy', version: before.version });
    expect(await ambulanceRow(s, 1)).toEqual(before);
  });

  it("PUT {status:'busy'} on a free ambulance is refused with 409", async () => {
    const before = await ambulanceRow(s, 2);
    const res = await s.api('PUT', '/api/ambulances/2', { token: operator, body: { status: 'busy' } });
    expect(res).toMatchObject({ status: 409, body: { error: `Ambulance ${plateOf(2)} has no active case; it becomes busy when dispatched to one` } });
    expect(await ambulanceRow(s, 2)).toEqual(before);
  });

  it.each(['available', 'maintenance'])('setting %s on an ambulance on an active case is refused with 409', async (status) => {
    for (const token of [operator, admin]) {
      const res = await s.api('PUT', '/api/ambulances/1', { token, body: { status } });
      expect(res).toMatchObject({ status: 409, body: { error: `Ambulance ${plateOf(1)} is on an active case; close or reassign the case first` } });
    }
    expect((await ambulanceRow(s, 1)).status).toBe('busy');
  });

  it('deleting an ambulance on an active case is refused with 409', async () => {
    const res = await s.api('DELETE', '/api/ambulances/1', { token: admin });
    expect(res).toMatchObject({ status: 409, body: { error: `Ambulance ${plateOf(1)} is on an active case; close or reassign the case first` } });
    expect(await ambulanceRow(s, 1)).toMatchObject({ status: 'busy' });
    expect(await rowCount(s, 'cases', { ambulance_id: 1, status: 'active' })).toBe(1);
  });
});
