import { beforeAll, describe, expect, it } from 'vitest';
import { EMERGENCY_TYPES } from '../../contract';
import {
  PUBLIC_URL, caseEvents, casePayload, dispatch, driverOf, expectStatus, initiateTracking, locationToken, outboxFor, plateOf, rowCount,
  shareLocation, tokenInLink, updateCase, writeCounts,
} from '../../testing/dispatchHelpers';
import { signedInStaff, useTestServer } from '../../testing/testServer';

/**
 * Issue 25, "A busy shift": the queue is honest to the patient (a waiting call's mail says help is
 * being arranged, its link shares while it waits; the mail at dispatch names the ambulance), the crew
 * hears at dispatch (the driver link mailed in the dispatch's own transaction, once), and SPEC's own
 * payload gets its type's priority.
 */
const s = useTestServer({ env: { LINK_LIMIT_PER_MIN: '100000', SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000' } });
const staff = signedInStaff(s);

const json = (v: string | null) => (v == null ? null : JSON.parse(v));
/** A waiting call taken through SPEC's service (its patient mailed); answers its id. */
async function queueCall(to: string, extra: Record<string, unknown> = {}): Promise<string> {
  return expectStatus(await dispatch(s, staff.operator, undefined, { status: 'pending', to, ...extra }), 201, 'queue').body.caseId;
}
const linkState = async (caseId: string) => s.api('GET', `/api/location/${caseId}?t=${await locationToken(s, caseId)}`);
const track = (ambulanceId: number, t: string) => s.api('GET', `/api/track/${ambulanceId}?t=${t}`);
const sendPosition = (ambulanceId: number, t: string) =>
  s.api('POST', `/api/ambulances/${ambulanceId}/position?t=${t}`, { body: { latitude: 17.39, longitude: 78.48 } });
async function closeAll() {
  for (const c of await s.ctx.db('cases').whereIn('status', ['active', 'pending'])) expectStatus(await updateCase(s, staff.admin, c.id, { status: 'closed' }), 200, 'close');
}
/** The mails of a case queued after `afterId`. */
const mailsSince = async (caseId: string, afterId: number) => (await outboxFor(s, caseId)).filter((m) => m.id > afterId);
const lastMailId = async () => Number((await s.ctx.db('outbox').max({ id: 'id' }).first())?.id ?? 0);

describe('a waiting call: the patient is told help is being arranged, and the link shares while it waits', () => {
  it('mails the patient that help is being arranged and asks for the location, naming no ambulance', async () => {
    const caseId = await queueCall('waiting.one@example.com', { patientName: 'Wait Ing' });
    const mails = await outboxFor(s, caseId);
    expect(mails.map((m) => [m.kind, m.to_address, m.subject])).toEqual([
      ['share-location', 'waiting.one@example.com', 'Emergency services: please share your location'],
    ]);
    const [mail] = mails;
    const link = `${PUBLIC_URL}/location/${caseId}?t=${await locationToken(s, caseId)}`;
    expect(JSON.parse(mail.links)).toEqual([link]);
    expect(mail.body_text).toBe([
      'Hello Wait Ing,',
      '',
      'Your call has reached emergency dispatch and help is being arranged: an ambulance will be sent',
      'to you as soon as one is free.',
      '',
      'Please open this link on your phone now and press "Share My Location", so that we know exactly',
      'where you are and can send the nearest ambulance:',
      '',
      link,
      '',
      'Keep the page open while you wait: it keeps your location up to date. We will e-mail you again',
      'when an ambulance is on its way. If things get worse, call your local emergency number again.',
      '',
      `Case reference: ${caseId.slice(0, 8)}`,
      '— Lifeline Emergency Dispatch',
    ].join('\n'));
    expect(mail.body_text).not.toMatch(/dispatched/i);
    // Nobody else hears of a call without an ambulance: no crew mail, no tracking links.
    expect(await rowCount(s, 'track_tokens', { case_id: caseId })).toBe(0);
  });

  it('its link answers 200 (waiting) and shares while pending; 410 once the call is closed', async () => {
    const caseId = await queueCall('waiting.two@example.com');
    expect(await linkState(caseId)).toMatchObject({ status: 200, body: { active: true, waiting: true } });
    const shared = await shareLocation(s, caseId, { latitude: 17.4012, longitude: 78.4713, accuracy: 12 });
    expect(shared).toMatchObject({ status: 200, body: { latitude: 17.4012, longitude: 78.4713, accuracy: 12 } });
    expect(await s.ctx.db('cases').where({ id: caseId }).first()).toMatchObject({ status: 'pending', latitude: 17.4012, longitude: 78.4713 });
    expect((await caseEvents(s, caseId)).at(-1)).toMatchObject({ action: 'location', actor_type: 'patient' });

    expectStatus(await updateCase(s, staff.operator, caseId, { status: 'closed' }), 200, 'close');
    expect(await linkState(caseId)).toMatchObject({ status: 410, body: { error: 'This case is no longer active' } });
    expect(await shareLocation(s, caseId, { latitude: 1, longitude: 2 })).toMatchObject({ status: 410, body: { error: 'This case is no longer active' } });
  });

  it('a resolved call\'s link is over too (410); a deleted one is unknown (404)', async () => {
    const resolved = await queueCall('waiting.three@example.com');
    expectStatus(await updateCase(s, staff.operator, resolved, { status: 'resolved' }), 200, 'resolve');
    expect((await linkState(resolved)).status).toBe(410);
    const deleted = await queueCall('waiting.four@example.com');
    const token = await locationToken(s, deleted);
    expectStatus(await s.api('DELETE', `/api/cases/${deleted}`, { token: staff.admin }), 200, 'delete');
    expect((await s.api('GET', `/api/location/${deleted}?t=${token}`)).status).toBe(404);
  });
});

describe('the mail at dispatch names the ambulance; the crew hears at once', () => {
  beforeAll(closeAll);

  it('a waiting call given a unit (PUT status active + ambulance): the patient is mailed which ambulance is coming, the driver their link, in the dispatch', async () => {
    const caseId = await queueCall('queued.patient@example.com', { patientName: 'Queue Dpatch', description: 'Stroke', caseType: 'Stroke', intake_location: { latitude: 17.4, longitude: 78.47, address: 'Charminar, Hyderabad', source: 'address' } });
    const afterQueue = await lastMailId();
    expectStatus(await updateCase(s, staff.operator, caseId, { status: 'active', ambulance_id: 3 }), 200, 'dispatch');

    const mails = await mailsSince(caseId, afterQueue);
    expect(mails.map((m) => [m.kind, m.to_address, m.subject])).toEqual([
      ['tracking-patient', 'queued.patient@example.com', `Your ambulance ${plateOf(3)} is on its way`],
      ['tracking-driver', driverOf(3), `Dispatch: case ${caseId.slice(0, 8)} for ${plateOf(3)}`],
    ]);
    const [patient, crew] = mails;
    const viewer = tokenInLink(patient.body_text, 'track', 3)!;
    const driver = tokenInLink(crew.body_text, 'driver', 3)!;
    expect(patient.body_text).toContain(`Ambulance ${plateOf(3)} is on its way to you. Watch it live here:\n\n${PUBLIC_URL}/track/3?t=${viewer}\n`);
    // No position shared yet: the patient is asked for it again.
    expect(patient.body_text).toContain('We do not have your location yet: open the location link you were sent and press');
    expect(crew.body_text).toContain(`${PUBLIC_URL}/driver/3?t=${driver}`);
    expect(crew.body_text).toContain(`${PUBLIC_URL}/track/3?t=${viewer}`);
    for (const line of ['Priority: P1', 'Patient: Queue Dpatch', 'Emergency: Stroke', 'Location: Charminar, Hyderabad']) expect(crew.body_text).toContain(`${line}\n`);

    // The links work at once: the patient watches, the crew sends positions.
    expect((await track(3, viewer)).status).toBe(200);
    expect((await sendPosition(3, driver)).status).toBe(200);
    const [updated, tracking] = (await caseEvents(s, caseId)).slice(-2);
    expect(updated.action).toBe('updated');
    expect([tracking.action, tracking.actor_type, json(tracking.after)])
      .toEqual(['tracking', 'user', { ambulance_id: 3, patient_email: 'queued.patient@example.com', driver_email: driverOf(3) }]);
  });

  it('once the patient shared, the dispatch mail does not ask for the location again', async () => {
    const caseId = await queueCall('shared.first@example.com');
    expectStatus(await shareLocation(s, caseId, { latitude: 17.41, longitude: 78.46 }), 200, 'share');
    const afterQueue = await lastMailId();
    expectStatus(await updateCase(s, staff.operator, caseId, { status: 'active', ambulance_id: 4 }), 200, 'dispatch');
    const [patient] = await mailsSince(caseId, afterQueue);
    expect(patient.kind).toBe('tracking-patient');
    expect(patient.body_text).not.toContain('We do not have your location yet');
  });

  it('a call created with an ambulance: its one patient mail names the ambulance and carries its tracking link; the crew gets the driver link; the answer says so', async () => {
    const res = await dispatch(s, staff.operator, 5, { to: 'at.once@example.com', patientName: 'At Once' });
    expect(res.status).toBe(201);
    expect(res.body.crew).toEqual({ ambulance_id: 5, license_plate: plateOf(5), driver_email: driverOf(5), mailed: true, message: `Driver link sent to ${driverOf(5)}` });
    const caseId = res.body.caseId;
    const mails = await outboxFor(s, caseId);
    expect(mails.map((m) => [m.kind, m.to_address])).toEqual([['tracking-driver', driverOf(5)], ['share-location', 'at.once@example.com']]);
    const share = mails[1];
    const viewer = tokenInLink(share.body_text, 'track', 5)!;
    expect(share.body_text).toBe([
      'Hello At Once,',
      '',
      `Ambulance ${plateOf(5)} has been dispatched for your emergency. Open this link on your phone and press`,
      '"Share My Location" so the crew can find you:',
      '',
      res.body.locationLink,
      '',
      'Watch the ambulance on its way to you here:',
      '',
      `${PUBLIC_URL}/track/5?t=${viewer}`,
      '',
      `Case reference: ${caseId.slice(0, 8)}`,
      '— Lifeline Emergency Dispatch',
    ].join('\n'));
    expect(tokenInLink(mails[0].body_text, 'track', 5)).toBe(viewer);
    expect((await track(5, viewer)).status).toBe(200);
    expect((await sendPosition(5, tokenInLink(mails[0].body_text, 'driver', 5)!)).status).toBe(200);
  });

  it('reassigning an active call (PUT ambulance_id): the old links stop, the patient and the new crew get the new ambulance\'s', async () => {
    const created = await dispatch(s, staff.operator, 6, { to: 'moved@example.com' });
    const caseId = created.body.caseId;
    const [oldCrew] = await outboxFor(s, caseId);
    const oldViewer = tokenInLink(oldCrew.body_text, 'track', 6)!;
    const oldDriver = tokenInLink(oldCrew.body_text, 'driver', 6)!;
    const before = await lastMailId();
    expectStatus(await updateCase(s, staff.operator, caseId, { ambulance_id: 7 }), 200, 'reassign');
    const mails = await mailsSince(caseId, before);
    expect(mails.map((m) => [m.kind, m.to_address, m.subject])).toEqual([
      ['tracking-patient', 'moved@example.com', `Your ambulance ${plateOf(7)} is on its way`],
      ['tracking-driver', driverOf(7), `Dispatch: case ${caseId.slice(0, 8)} for ${plateOf(7)}`],
    ]);
    expect((await track(6, oldViewer)).status).toBe(404);
    expect((await sendPosition(6, oldDriver)).status).toBe(403);
    expect((await track(7, tokenInLink(mails[0].body_text, 'track', 7)!)).status).toBe(200);
    expect((await sendPosition(7, tokenInLink(mails[1].body_text, 'driver', 7)!)).status).toBe(200);
  });
});

describe('an ambulance without a driver e-mail', () => {
  beforeAll(async () => {
    await closeAll();
    expectStatus(await s.api('PUT', '/api/ambulances/8', { token: staff.admin, body: { email: '' } }), 200, 'no driver e-mail');
  });

  it('a dispatch still succeeds; nothing goes to the crew, the answer and the timeline say so; the patient is still told', async () => {
    const res = await dispatch(s, staff.operator, 8, { to: 'no.crew@example.com' });
    expect(res.status).toBe(201);
    const message = `${plateOf(8)} has no driver e-mail: the crew was not sent the driver link. Tell them by radio, and add a driver e-mail in Manage Ambulances`;
    expect(res.body.crew).toEqual({ ambulance_id: 8, license_plate: plateOf(8), driver_email: null, mailed: false, message });
    const caseId = res.body.caseId;
    expect((await outboxFor(s, caseId)).map((m) => [m.kind, m.to_address])).toEqual([['share-location', 'no.crew@example.com']]);
    // Only a viewer's link exists (the patient's): no driver link nobody received.
    expect((await s.ctx.db('track_tokens').where({ case_id: caseId }).pluck('kind'))).toEqual(['viewer']);
    const events = await caseEvents(s, caseId);
    expect(events.map((e) => [e.action, e.actor_type])).toEqual([['created', 'user'], ['tracking', 'user'], ['crew.not_notified', 'system']]);
    expect(json(events[1].after)).toEqual({ ambulance_id: 8, patient_email: 'no.crew@example.com' });
    expect(json(events[2].after)).toEqual({ ambulance_id: 8, reason: message });
    expectStatus(await updateCase(s, staff.operator, caseId, { status: 'closed' }), 200, 'close');
  });

  it('the same when a waiting call is given that ambulance', async () => {
    const caseId = await queueCall('no.crew.queued@example.com');
    const before = await lastMailId();
    expectStatus(await updateCase(s, staff.operator, caseId, { status: 'active', ambulance_id: 8 }), 200, 'dispatch');
    expect((await mailsSince(caseId, before)).map((m) => [m.kind, m.to_address])).toEqual([['tracking-patient', 'no.crew.queued@example.com']]);
    expect((await caseEvents(s, caseId)).at(-1)).toMatchObject({ action: 'crew.not_notified', actor_type: 'system' });
  });
});

describe('no mail twice', () => {
  beforeAll(async () => {
    await closeAll();
    expectStatus(await s.api('PUT', '/api/ambulances/8', { token: staff.admin, body: { email: driverOf(8) } }), 200, 'driver e-mail back');
  });

  it('an idempotent replay of POST /live-location and of POST /api/cases sends nothing more', async () => {
    const before = await writeCounts(s);
    const send = (path: string, key: string, body: Record<string, unknown>) => s.api('POST', path, { token: staff.operator, body, headers: { 'Idempotency-Key': key } });
    const live = casePayload(1, { to: 'replay.live@example.com' });
    const first = await send('/live-location', 'notices-live', live);
    const again = await send('/live-location', 'notices-live', live);
    expect(first.status).toBe(201);
    expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') }).toEqual({ status: 201, body: first.body, replayed: 'true' });
    const form = { patientName: 'Replay Form', email: 'replay.form@example.com', description: 'Injury', ambulance_id: 2 };
    const created = await send('/api/cases', 'notices-form', form);
    expect((await send('/api/cases', 'notices-form', form)).body).toEqual(created.body);
    expect((await outboxFor(s, first.body.caseId)).map((m) => m.kind)).toEqual(['tracking-driver', 'share-location']);
    expect((await outboxFor(s, created.body.case.id)).map((m) => m.kind)).toEqual(['tracking-driver']);
    expect(await writeCounts(s)).toEqual({
      ...before, cases: before.cases + 2, assignments: before.assignments + 2, case_events: before.case_events + 4, outbox: before.outbox + 3, track_tokens: before.track_tokens + 4,
    });
  });

  it('the same dispatch PUT again takes nothing and mails nothing', async () => {
    const caseId = await queueCall('put.twice@example.com');
    const dispatchIt = () => updateCase(s, staff.operator, caseId, { status: 'active', ambulance_id: 3 });
    expectStatus(await dispatchIt(), 200, 'dispatch');
    const before = await writeCounts(s);
    expectStatus(await dispatchIt(), 200, 'again');
    expect(await writeCounts(s)).toEqual(before);
  });

  it('Send Tracker re-sends new links and revokes none: the dispatch\'s keep working', async () => {
    const caseId = expectStatus(await dispatch(s, staff.operator, 4, { to: 'resend@example.com' }), 201, 'dispatch').body.caseId;
    const [crew] = await outboxFor(s, caseId);
    const first = { viewer: tokenInLink(crew.body_text, 'track', 4)!, driver: tokenInLink(crew.body_text, 'driver', 4)! };
    const before = await lastMailId();
    expectStatus(await initiateTracking(s, staff.operator, caseId, 4), 200, 'send tracker');
    const resent = await mailsSince(caseId, before);
    expect(resent.map((m) => [m.kind, m.to_address])).toEqual([['tracking-patient', 'resend@example.com'], ['tracking-driver', driverOf(4)]]);
    const second = tokenInLink(resent[0].body_text, 'track', 4)!;
    expect(second).not.toBe(first.viewer);
    for (const t of [first.viewer, second]) expect((await track(4, t)).status).toBe(200);
    expect((await sendPosition(4, first.driver)).status).toBe(200);
    expect(await rowCount(s, 'track_tokens', { case_id: caseId, revoked_at: null })).toBe(4);
  });
});

describe("priority from SPEC's own payload (the chosen type as the description, no caseType)", () => {
  beforeAll(closeAll);
  const specPayload = (description: string) => ({ to: 'spec.payload@example.com', status: 'pending', patientName: 'Spec Payload', description });

  it.each(EMERGENCY_TYPES.map((t) => [t.type, t.priority] as const))('%s: P%i', async (type, priority) => {
    const res = await s.api('POST', '/live-location', { token: staff.operator, body: specPayload(type) });
    expect(res.status).toBe(201);
    expect(res.body.case).toMatchObject({ priority, description: type, caseType: null });
  });

  it('the user guide\'s table: Cardiac arrest, Breathing problems, Heart Attack and Stroke are P1; Medical Emergency, Accident and Injury P2; Other P3', () => {
    expect(Object.fromEntries(EMERGENCY_TYPES.map((t) => [t.type, t.priority]))).toEqual({
      'Cardiac arrest': 1, 'Breathing problems': 1, 'Heart Attack': 1, Stroke: 1,
      'Medical Emergency': 2, Accident: 2, Injury: 2, Other: 3,
    });
  });

  it.each([
    ['heart attack', 1], ['  CARDIAC  ARREST ', 1], ['Heart Attack - collapsed at the gym', 1], ['Breathing problems: asthma, no inhaler', 1],
    ['Injury, fell from a ladder', 2], ['Patient: A, Type: Stroke', 1],
    // Other's typed text, and a description that only mentions a type, are no type: P3.
    ['Fell in the bathroom', 3], ['Stroke patient feels fine now', 3],
  ])('a description %j: P%i', async (description, priority) => {
    const res = await s.api('POST', '/live-location', { token: staff.operator, body: specPayload(description) });
    expect(res.body.case.priority).toBe(priority);
  });

  it('a note goes with any type: kept as the description, the priority from the type; a PUT changes the note and keeps the type', async () => {
    const res = await s.api('POST', '/live-location', { token: staff.operator, body: { ...specPayload('Unconscious, not breathing, CPR in progress'), caseType: 'Cardiac arrest' } });
    expect(res.status).toBe(201);
    expect(res.body.case).toMatchObject({ priority: 1, caseType: 'Cardiac arrest', description: 'Unconscious, not breathing, CPR in progress' });
    const id = res.body.case.id;
    const put = await updateCase(s, staff.operator, id, { description: 'Breathing again, drowsy' });
    expect(put.body.case).toMatchObject({ priority: 1, caseType: 'Cardiac arrest', description: 'Breathing again, drowsy' });
    // The form's own payload: the chosen type and the note.
    const form = await s.api('POST', '/api/cases', { token: staff.operator, body: { patientName: 'Form Note', email: 'form.note@example.com', caseType: 'Breathing problems', description: 'Wheezing, lips blue', status: 'pending' } });
    expect(form.body.case).toMatchObject({ priority: 1, caseType: 'Breathing problems', description: 'Wheezing, lips blue' });
  });
});
