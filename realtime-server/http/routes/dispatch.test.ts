import { describe, expect, it } from 'vitest';
import {
  PUBLIC_URL, UUID_V4, ambulanceRow, caseEvents, caseRow, dispatch, dispatchCase, driverOf, initiateTracking, outboxFor, plateOf, rowCount, sha256Hex, tokenInLink, updateCase, userId, writeCounts, locationToken,
} from '../../testing/dispatchHelpers';
import { signedInStaff, useTestServer } from '../../testing/testServer';
import { DEMO } from '../../testing/demoAccounts';

describe('POST /live-location (the e-mail/location service)', () => {
  const s = useTestServer();
  const staff = signedInStaff(s);

  it("creates an active case with a UUIDv4 id, takes the ambulance, records the timeline and queues the patient's and the crew's e-mails", async () => {
    const before = await writeCounts(s);
    const res = await dispatch(s, staff.operator, 1, { to: 'Jane.Roe@Example.com', patientName: 'Jane Roe', description: 'Stroke', caseType: 'Fire' });
    expect(res.status).toBe(201);
    const { caseId } = res.body;
    expect(caseId).toMatch(UUID_V4);

    const row = await caseRow(s, caseId);
    expect(row).toMatchObject({
      id: caseId, status: 'active', patient_name: 'Jane Roe', patient_email: 'jane.roe@example.com',
      description: 'Stroke', case_type: 'Fire', ambulance_id: 1, operator_id: await userId(s, 'operator@lifeline.test'),
      closed_at: null, latitude: null, longitude: null,
    });
    expect((await ambulanceRow(s, 1)).status).toBe('busy');

    const events = await caseEvents(s, caseId);
    expect(events.map((e) => e.action)).toEqual(['created', 'tracking']);
    expect(events[0]).toMatchObject({ action: 'created', actor_type: 'user', actor_id: await userId(s, 'operator@lifeline.test'), before: null });
    expect(JSON.parse(events[0].after)).toMatchObject({ status: 'active', ambulance_id: 1, patient_email: 'jane.roe@example.com' });
    expect(JSON.parse(events[1].after)).toEqual({ ambulance_id: 1, patient_email: 'jane.roe@example.com', driver_email: driverOf(1) });

    // The crew hears at dispatch (their driver link); the patient's one mail names the ambulance.
    const mails = await outboxFor(s, caseId);
    expect(mails.map((m) => [m.kind, m.to_address, m.status, m.attempts])).toEqual([
      ['tracking-driver', driverOf(1), 'queued', 0],
      ['share-location', 'jane.roe@example.com', 'queued', 0],
    ]);
    const share = mails[1];
    expect(share.body_text).toContain(`${PUBLIC_URL}/location/${caseId}`);
    expect(share.body_text).toContain(`Ambulance ${plateOf(1)} has been dispatched for your emergency.`);
    // The patient's link carries its own 256-bit token, answered to the dispatcher as `locationLink` and nowhere else.
    const link = `${PUBLIC_URL}/location/${caseId}?t=${await locationToken(s, caseId)}`;
    const viewer = tokenInLink(share.body_text, 'track', 1)!;
    expect(JSON.parse(share.links)).toEqual([link, `${PUBLIC_URL}/track/1?t=${viewer}`]);
    expect(share.body_text).toContain(link);
    expect(mails[0].body_text).toContain(`${PUBLIC_URL}/track/1?t=${viewer}`);
    expect(tokenInLink(mails[0].body_text, 'driver', 1)).toMatch(/^[\w-]{43}$/);

    expect(await writeCounts(s)).toEqual({
      ...before, cases: before.cases + 1, case_events: before.case_events + 2, assignments: before.assignments + 1, outbox: before.outbox + 2, track_tokens: before.track_tokens + 2,
    });
  });

  it('answers with the created case as well as its id', async () => {
    const res = await dispatch(s, staff.operator, 7);
    expect(res.status).toBe(201);
    expect(res.body.case).toMatchObject({ id: res.body.caseId, status: 'active', ambulance_id: 7, license_plate: plateOf(7) });
    expect(res.body.locationLink).toMatch(new RegExp(`^${PUBLIC_URL}/location/${res.body.caseId}\\?t=[\\w-]{43}$`));
  });

  it('POST /api/cases answers the patient\'s location link too (no e-mail is sent), and it shares', async () => {
    const res = await s.api('POST', '/api/cases', { token: staff.operator, body: { to: 'p@example.com', patientName: 'Walk In', description: 'Fall' } });
    expect(res.status).toBe(201);
    expect(res.body.locationLink).toMatch(new RegExp(`^${PUBLIC_URL}/location/${res.body.case.id}\\?t=[\\w-]{43}$`));
    const { pathname, search } = new URL(res.body.locationLink);
    expect((await s.api('POST', `/api${pathname}${search}`, { body: { latitude: 17.4, longitude: 78.4 } })).status).toBe(200);
  });

  it.each([
    ['a missing patientName', { patientName: undefined }, 'patientName: required'],
    ['a blank patientName', { patientName: '   ' }, 'patientName: required'],
    ['a malformed e-mail in `to`', { to: 'not-an-email' }, 'to: Invalid email address'],
    ['no patient e-mail at all', { to: undefined }, 'to: required'],
    ['a status other than active or pending', { status: 'closed' }, 'status: a new case is active, or pending while it waits for an ambulance'],
    ['a pending call that names an ambulance', { status: 'pending' }, 'status: a pending call waits without an ambulance; leave the ambulance out or make it active'],
    ['a missing description', { description: undefined }, 'description: required'],
    ['an ambulance id that is not a number', { license_plate: 'TS09 EA 1002' }, 'license_plate: must be a whole number'],
  ])('refuses %s with 400 and writes nothing', async (_what, extra, error) => {
    const before = await writeCounts(s);
    const res = await dispatch(s, staff.operator, 2, extra);
    expect(res).toMatchObject({ status: 400, body: { error } });
    expect(await writeCounts(s)).toEqual(before);
    expect((await ambulanceRow(s, 2)).status).toBe('available');
  });

  it('refuses a busy ambulance with 409 naming its plate, and then writes no case and no mail', async () => {
    await dispatchCase(s, staff.operator, 2);
    const versionBefore = (await ambulanceRow(s, 2)).version;
    const before = await writeCounts(s);
    const res = await dispatch(s, staff.operator, 2, { to: 'second@example.com' });
    expect(res).toMatchObject({ status: 409, body: { error: `Ambulance ${plateOf(2)} is not available; choose another ambulance` } });
    expect(await writeCounts(s)).toEqual(before);
    expect(await rowCount(s, 'outbox', { to_address: 'second@example.com' })).toBe(0);
    expect(await rowCount(s, 'cases', { patient_email: 'second@example.com' })).toBe(0);
    const amb = await ambulanceRow(s, 2);
    expect(amb).toMatchObject({ status: 'busy', version: versionBefore });
  });

  it('refuses an ambulance in maintenance with 409', async () => {
    expect((await s.api('PUT', '/api/ambulances/8', { token: staff.admin, body: { status: 'maintenance' } })).status).toBe(200);
    const before = await writeCounts(s);
    const res = await dispatch(s, staff.operator, 8);
    expect(res).toMatchObject({ status: 409, body: { error: `Ambulance ${plateOf(8)} is not available; choose another ambulance` } });
    expect(await writeCounts(s)).toEqual(before);
    expect((await ambulanceRow(s, 8)).status).toBe('maintenance');
  });

  it('refuses an ambulance id that does not exist with 422 and writes nothing', async () => {
    const before = await writeCounts(s);
    const res = await dispatch(s, staff.operator, 99);
    expect(res).toMatchObject({ status: 422, body: { error: 'Ambulance 99 does not exist' } });
    expect(await writeCounts(s)).toEqual(before);
  });

  it("refuses someone else's operator_id with 403 and writes nothing; one's own is accepted", async () => {
    const adminId = await userId(s, DEMO.admin.email);
    const operatorId = await userId(s, DEMO.operator.email);
    const before = await writeCounts(s);
    const res = await dispatch(s, staff.operator, 3, { operator_id: adminId });
    expect(res).toMatchObject({ status: 403, body: { error: 'operator_id must be your own id' } });
    expect(await writeCounts(s)).toEqual(before);
    expect((await ambulanceRow(s, 3)).status).toBe('available');

    const own = await dispatch(s, staff.operator, 3, { operator_id: String(operatorId) });
    expect(own.status).toBe(201);
    expect((await caseRow(s, own.body.caseId)).operator_id).toBe(operatorId);
  });

  it('requires a staff bearer token', async () => {
    const before = await writeCounts(s);
    const res = await s.api('POST', '/live-location', { body: { to: 'p@example.com', status: 'active', patientName: 'P', description: 'D', license_plate: 4 } });
    expect(res).toMatchObject({ status: 401, body: { error: 'Authentication required' } });
    expect(await writeCounts(s)).toEqual(before);
    expect((await ambulanceRow(s, 4)).status).toBe('available');
  });
});

describe('the double-dispatch race', () => {
  const s = useTestServer();

  it('lets exactly one of 10 simultaneous dispatches of one ambulance succeed', async () => {
    const [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
    const tokens = [operator, admin];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => dispatch(s, tokens[i % 2], 5, { to: `race-${i}@example.com` })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body).toEqual({ error: `Ambulance ${plateOf(5)} is not available; choose another ambulance` });
    }
    const winner = results.find((r) => r.status === 201)!;
    expect(await rowCount(s, 'cases')).toBe(1);
    expect(await rowCount(s, 'cases', { ambulance_id: 5, status: 'active' })).toBe(1);
    // The winner's two mails (the patient's and the crew's) and timeline entries (created, tracking), nothing of the others.
    expect(await rowCount(s, 'outbox')).toBe(2);
    expect(await rowCount(s, 'case_events')).toBe(2);
    expect(await rowCount(s, 'track_tokens')).toBe(2);
    expect((await outboxFor(s, winner.body.caseId))).toHaveLength(2);
    expect((await ambulanceRow(s, 5)).status).toBe('busy');
  });
});

describe('POST /api/tracking/initiate (the tracking service)', () => {
  const s = useTestServer();
  const staff = signedInStaff(s);

  it("queues the patient's tracking e-mail and the driver's e-mail, with tokens stored only as hashes", async () => {
    const caseId = await dispatchCase(s, staff.operator, 1, { to: 'pat@example.com', patientName: 'Pat Kay', description: 'Chest pain' });
    // The dispatch mailed the crew their links already; Send Tracker re-sends new ones, the first still working.
    const dispatchMails = (await outboxFor(s, caseId)).map((m) => m.id as number);
    const dispatchTokens = await s.ctx.db('track_tokens').where({ case_id: caseId }).orderBy('id');
    expect(dispatchTokens.map((t) => t.kind)).toEqual(['viewer', 'driver']);
    const before = await writeCounts(s);
    const res = await initiateTracking(s, staff.operator, caseId, 1);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true, message: 'Tracking emails sent successfully!', caseId, ambulanceId: 1,
      patientEmail: 'pat@example.com', driverEmail: driverOf(1),
    });
    expect(await writeCounts(s)).toEqual({ ...before, outbox: before.outbox + 2, track_tokens: before.track_tokens + 2, case_events: before.case_events + 1 });

    const mails = (await outboxFor(s, caseId)).filter((m) => !dispatchMails.includes(m.id));
    expect(mails.map((m) => [m.kind, m.to_address, m.status])).toEqual([
      ['tracking-patient', 'pat@example.com', 'queued'],
      ['tracking-driver', driverOf(1), 'queued'],
    ]);
    const [patientMail, driverMail] = mails;
    const viewer = tokenInLink(patientMail.body_text, 'track', 1)!;
    const driver = tokenInLink(driverMail.body_text, 'driver', 1)!;
    expect(viewer).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    expect(driver).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(viewer).not.toBe(driver);
    expect(patientMail.body_text).toContain(`${PUBLIC_URL}/track/1?t=${viewer}`);
    expect(patientMail.body_text).not.toContain('/driver/');
    expect(patientMail.subject).toBe(`Your ambulance ${plateOf(1)} is on its way`);
    // The driver's mail: the driver link, the public tracking link and the case details.
    expect(driverMail.body_text).toContain(`${PUBLIC_URL}/driver/1?t=${driver}`);
    expect(driverMail.body_text).toContain(`${PUBLIC_URL}/track/1?t=${viewer}`);
    expect(driverMail.body_text).toContain(caseId);
    expect(driverMail.body_text).toContain('Pat Kay');
    expect(driverMail.body_text).toContain('pat@example.com');
    expect(driverMail.body_text).toContain('Chest pain');
    expect(driverMail.subject).toBe(`Dispatch: case ${caseId.slice(0, 8)} for ${plateOf(1)}`);

    const tokens = await s.ctx.db('track_tokens').where({ case_id: caseId }).orderBy('id');
    expect(tokens.map((t) => [t.kind, t.ambulance_id, t.token_hash, t.revoked_at])).toEqual([
      ...dispatchTokens.map((t) => [t.kind, 1, t.token_hash, null]),
      ['viewer', 1, sha256Hex(viewer), null],
      ['driver', 1, sha256Hex(driver), null],
    ]);
    const stored = JSON.stringify(await s.ctx.db('track_tokens'));
    expect(stored).not.toContain(viewer);
    expect(stored).not.toContain(driver);

    const tracked = (await caseEvents(s, caseId)).at(-1);
    expect(tracked).toMatchObject({ action: 'tracking', actor_type: 'user', actor_id: await userId(s, 'operator@lifeline.test') });
  });

  it('refuses a case that is no longer active with 409 and writes nothing', async () => {
    const caseId = await dispatchCase(s, staff.operator, 2);
    expect((await updateCase(s, staff.operator, caseId, { status: 'closed' })).status).toBe(200);
    const before = await writeCounts(s);
    const res = await initiateTracking(s, staff.operator, caseId, 2);
    expect(res).toMatchObject({ status: 409, body: { error: 'This case is no longer active' } });
    expect(await writeCounts(s)).toEqual(before);
  });

  it('refuses an ambulance that is not on that case with 409 and writes nothing', async () => {
    const caseId = await dispatchCase(s, staff.operator, 3);
    await dispatchCase(s, staff.operator, 4);
    const before = await writeCounts(s);
    const res = await initiateTracking(s, staff.operator, caseId, 4);
    expect(res).toMatchObject({ status: 409, body: { error: 'No active case assigned to this ambulance.' } });
    expect(await writeCounts(s)).toEqual(before);
  });

  it('refuses an ambulance without a driver e-mail with 422 (no fallback address) and writes nothing', async () => {
    const put = await s.api('PUT', '/api/ambulances/6', { token: staff.admin, body: { email: '' } });
    expect(put.status).toBe(200);
    expect(put.body.ambulance.email).toBeNull();
    expect((await ambulanceRow(s, 6)).driver_email).toBeNull();
    const caseId = await dispatchCase(s, staff.operator, 6);
    const before = await writeCounts(s);
    const res = await initiateTracking(s, staff.operator, caseId, 6);
    expect(res).toMatchObject({ status: 422, body: { error: `Ambulance ${plateOf(6)} has no driver email; add one in Manage Ambulances first` } });
    expect(await writeCounts(s)).toEqual(before);
  });

  it('answers 404 for an unknown case and 400 for a malformed payload', async () => {
    const before = await writeCounts(s);
    expect(await initiateTracking(s, staff.operator, '6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b', 1))
      .toMatchObject({ status: 404, body: { error: 'Case not found' } });
    expect(await initiateTracking(s, staff.operator, 'not-a-case', 1))
      .toMatchObject({ status: 400, body: { error: 'caseId: must be a case id' } });
    expect(await s.api('POST', '/api/tracking/initiate', { token: staff.operator, body: { ambulanceId: 1 } }))
      .toMatchObject({ status: 400, body: { error: 'caseId: must be a case id' } });
    expect(await writeCounts(s)).toEqual(before);
  });

  it('requires a staff bearer token', async () => {
    const caseId = await dispatchCase(s, staff.operator, 7);
    const before = await writeCounts(s);
    const res = await s.api('POST', '/api/tracking/initiate', { body: { caseId, ambulanceId: 7 } });
    expect(res).toMatchObject({ status: 401, body: { error: 'Authentication required' } });
    expect(await writeCounts(s)).toEqual(before);
  });
});
