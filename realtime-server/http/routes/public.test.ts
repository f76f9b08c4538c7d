import { beforeAll, describe, expect, it } from 'vitest';
import {
  ISO_TIME, ambulanceRow, caseEvents, caseRow, dispatchCase, plateOf, rowCount, trackingTokens, updateCase, shareLocation,
} from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';

describe('POST /api/location/{caseId} (the patient shares a position, no sign-in)', () => {
  const s = useTestServer();
  let operator: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
  });

  const share = (caseId: string, body: unknown) => shareLocation(s, caseId, body);

  it('stores latitude and longitude rounded to 8 decimals and the time, and answers them', async () => {
    const caseId = await dispatchCase(s, operator, 1);
    const started = new Date().toISOString();
    const res = await share(caseId, { latitude: 17.123456789123, longitude: -78.987654321987, accuracy: 12.5 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ latitude: 17.12345679, longitude: -78.98765432, accuracy: 12.5, updated_at: expect.stringMatching(ISO_TIME) });
    expect(res.body.updated_at >= started).toBe(true);
    const row = await caseRow(s, caseId);
    expect(Number(row.latitude)).toBe(17.12345679);
    expect(Number(row.longitude)).toBe(-78.98765432);
    expect(row).toMatchObject({ location_accuracy: 12.5, location_at: res.body.updated_at, status: 'active' });
    const listed = (await s.api('GET', '/api/cases', { token: operator })).body.cases.find((c: any) => c.id === caseId);
    expect(listed).toMatchObject({ latitude: 17.12345679, longitude: -78.98765432, location_updated_at: res.body.updated_at });
    // The list above was a staff read of this location: the timeline ends with its 'location.viewed' (services/audit.test.ts).
    const e = (await caseEvents(s, caseId)).filter((x) => x.action === 'location').at(-1);
    expect(e).toMatchObject({ action: 'location', actor_type: 'patient', actor_id: null, before: null });
    expect(JSON.parse(e.after)).toEqual({ latitude: 17.12345679, longitude: -78.98765432, accuracy: 12.5 });
  });

  it('replaces an earlier position and keeps the earlier one on the timeline', async () => {
    const caseId = await dispatchCase(s, operator, 2);
    expect((await share(caseId, { latitude: 10, longitude: 20 })).status).toBe(200);
    const res = await share(caseId, { latitude: 10.5, longitude: 20.5 });
    expect(res.body).toMatchObject({ latitude: 10.5, longitude: 20.5, accuracy: null });
    expect(Number((await caseRow(s, caseId)).latitude)).toBe(10.5);
    // Only what changed has a before-value (the accuracy stayed unknown).
    expect(JSON.parse((await caseEvents(s, caseId)).at(-1).before)).toEqual({ latitude: 10, longitude: 20 });
  });

  it('answers 404 for an unknown case and for a non-UUID id', async () => {
    const before = await rowCount(s, 'case_events');
    for (const id of ['3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a', 'not-a-uuid', '12']) {
      const res = await s.api('POST', `/api/location/${id}?t=${'x'.repeat(43)}`, { body: { latitude: 1, longitude: 2 } });
      expect(res).toMatchObject({ status: 404, body: { error: 'Case not found' } });
    }
    expect(await rowCount(s, 'case_events')).toBe(before);
  });

  it('answers 410 once the case is closed and stores nothing', async () => {
    const caseId = await dispatchCase(s, operator, 3);
    expect((await share(caseId, { latitude: 1, longitude: 2 })).status).toBe(200);
    expect((await updateCase(s, operator, caseId, { status: 'closed' })).status).toBe(200);
    const before = await caseRow(s, caseId);
    const events = await rowCount(s, 'case_events', { case_id: caseId });
    expect(await share(caseId, { latitude: 3, longitude: 4 })).toMatchObject({ status: 410, body: { error: 'This case is no longer active' } });
    expect(await caseRow(s, caseId)).toEqual(before);
    expect(await rowCount(s, 'case_events', { case_id: caseId })).toBe(events);
  });

  it.each([
    [{ latitude: 90.000001, longitude: 0 }, 'latitude: Too big: expected number to be <=90'],
    [{ latitude: -91, longitude: 0 }, 'latitude: Too small: expected number to be >=-90'],
    [{ latitude: 0, longitude: 180.5 }, 'longitude: Too big: expected number to be <=180'],
    [{ latitude: 0, longitude: -181 }, 'longitude: Too small: expected number to be >=-180'],
    [{ latitude: '17.4', longitude: 78.4 }, 'latitude: Invalid input: expected number, received string'],
    [{ longitude: 78.4 }, 'latitude: required'],
  ])('refuses %j with 400 and stores nothing', async (body, error) => {
    const caseId = (await s.ctx.db('cases').where({ status: 'active' }).first()).id;
    const before = await caseRow(s, caseId);
    expect(await share(caseId, body)).toMatchObject({ status: 400, body: { error } });
    expect(await caseRow(s, caseId)).toEqual(before);
  });
});

describe('GET /api/track/{ambulanceId}?t= and driver positions', () => {
  const s = useTestServer();
  let operator: string;
  let caseId: string;
  let viewer: string;
  let driver: string;
  let otherDriver: string;
  const NOT_FOUND = { error: 'Tracking link not found or expired' };

  beforeAll(async () => {
    operator = await s.signIn('operator');
    caseId = await dispatchCase(s, operator, 1);
    ({ viewer, driver } = await trackingTokens(s, operator, caseId, 1));
    const other = await dispatchCase(s, operator, 2);
    otherDriver = (await trackingTokens(s, operator, other, 2)).driver;
  });

  const track = (id: number | string, t?: string) => s.api('GET', `/api/track/${id}${t === undefined ? '' : `?t=${encodeURIComponent(t)}`}`);
  const sendPosition = (id: number, t: string, body: unknown = { latitude: 17.5, longitude: 78.5 }) =>
    s.api('POST', `/api/ambulances/${id}/position?t=${encodeURIComponent(t)}`, { body });

  it("answers the ambulance's latest position and time to the viewer token of the tracking e-mail, not cached", async () => {
    const amb = await ambulanceRow(s, 1);
    const res = await track(1, viewer);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ambulanceId: 1, license_plate: plateOf(1), latitude: 17.4126, longitude: 78.4482, updated_at: amb.position_at,
      trail: [], case: { id: caseId, status: 'active', patientName: expect.any(String), description: expect.any(String) },
      patient: null, etaSpeedKmh: 30, eta_model: { road_factor: 1.3, speed_kmh: 30 }, unit_status: 'dispatched', destination: null, role: 'viewer',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it("shows the link holder the case's patient location once shared, and the driver link says so", async () => {
    expect((await shareLocation(s, caseId, { latitude: 17.43, longitude: 78.47, accuracy: 12 })).status).toBe(200);
    const seen = await track(1, viewer);
    expect(seen.body.patient).toEqual({ latitude: 17.43, longitude: 78.47, accuracy: 12, updated_at: expect.stringMatching(ISO_TIME) });
    expect((await track(1, driver)).body).toMatchObject({ role: 'driver', patient: { latitude: 17.43, longitude: 78.47 } });
  });

  it('accepts positions sent with the driver token, which the viewer then sees', async () => {
    const res = await sendPosition(1, driver, { latitude: 17.42, longitude: 78.46, speed: 11 });
    expect(res).toMatchObject({ status: 200, body: { ok: true, latest: true } });
    const rows = await s.ctx.db('ambulance_positions').where({ ambulance_id: 1 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ latitude: 17.42, longitude: 78.46, speed: 11, source: 'driver' });
    expect((await track(1, viewer)).body).toMatchObject({
      ambulanceId: 1, license_plate: plateOf(1), latitude: 17.42, longitude: 78.46, updated_at: rows[0].recorded_at,
      trail: [{ latitude: 17.42, longitude: 78.46, recorded_at: rows[0].recorded_at }],
    });
  });

  it('answers 404 with the same body for a wrong token, no token, another ambulance and a malformed id', async () => {
    const answers = [
      await track(1, 'x'.repeat(43)),
      await track(1, driver.slice(0, -1)),
      await track(1),
      await track(1, ''),
      await track(2, viewer),
      await track(99, viewer),
      await track('abc', viewer),
    ];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('lets the driver token watch too', async () => {
    expect((await track(1, driver)).status).toBe(200);
  });

  it('refuses positions with the viewer token, a wrong token or another ambulance\'s driver token: one 403 that does not tell them apart', async () => {
    const before = await rowCount(s, 'ambulance_positions');
    const amb1 = await ambulanceRow(s, 1);
    expect(await sendPosition(1, viewer)).toMatchObject({ status: 403, body: { error: 'This link is not valid for sending positions' } });
    expect(await sendPosition(1, otherDriver)).toMatchObject({ status: 403, body: { error: 'This link is not valid for sending positions' } });
    expect(await sendPosition(2, driver)).toMatchObject({ status: 403, body: { error: 'This link is not valid for sending positions' } });
    expect(await sendPosition(1, 'y'.repeat(43))).toMatchObject({ status: 403, body: { error: 'This link is not valid for sending positions' } });
    expect(await rowCount(s, 'ambulance_positions')).toBe(before);
    expect(await ambulanceRow(s, 1)).toEqual(amb1);
  });

  it('validates a driver position like any other (400)', async () => {
    const before = await rowCount(s, 'ambulance_positions');
    expect(await sendPosition(1, driver, { latitude: 91, longitude: 78 })).toMatchObject({ status: 400, body: { error: 'latitude: Too big: expected number to be <=90' } });
    expect(await rowCount(s, 'ambulance_positions')).toBe(before);
  });

  it('stops both tokens once the case closes: tracking 404 with the same body, positions 403', async () => {
    expect((await updateCase(s, operator, caseId, { status: 'closed' })).status).toBe(200);
    const res = await track(1, viewer);
    expect(res).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await track(1, driver)).toMatchObject({ status: 404, body: NOT_FOUND });
    const before = await rowCount(s, 'ambulance_positions');
    expect(await sendPosition(1, driver)).toMatchObject({ status: 403, body: { error: 'This link is not valid for sending positions' } });
    expect(await rowCount(s, 'ambulance_positions')).toBe(before);
    // Reactivating the case does not revive revoked links.
    expect((await updateCase(s, operator, caseId, { status: 'active' })).status).toBe(200);
    expect(await track(1, viewer)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await sendPosition(1, driver)).status).toBe(403);
  });

  it('honours a link only while its case is active, even if the tokens were never revoked', async () => {
    const c = await dispatchCase(s, operator, 5);
    const t = await trackingTokens(s, operator, c, 5);
    expect((await track(5, t.viewer)).status).toBe(200);
    await s.ctx.db('cases').where({ id: c }).update({ status: 'pending' });
    // The dispatch's pair and Send Tracker's: none revoked.
    expect(Number((await s.ctx.db('track_tokens').where({ case_id: c }).whereNull('revoked_at').count({ n: '*' }).first())?.n)).toBe(4);
    expect(await track(5, t.viewer)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await sendPosition(5, t.driver)).status).toBe(403);
  });

  it("stops a case's links when its ambulance is reassigned", async () => {
    const c = await dispatchCase(s, operator, 3);
    const t = await trackingTokens(s, operator, c, 3);
    expect((await track(3, t.viewer)).status).toBe(200);
    expect((await updateCase(s, operator, c, { ambulance_id: 4 })).status).toBe(200);
    expect(await track(3, t.viewer)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await track(4, t.viewer)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await sendPosition(3, t.driver)).status).toBe(403);
  });
});
