import { beforeAll, describe, expect, it } from 'vitest';
import { ISO_TIME, ambulanceRow, caseRow, dispatchCase, driverOf, plateOf, rowCount, updateCase } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';
import { plateKey } from '../../../db/repositories/plateKey';

describe('GET /api/ambulances', () => {
  const s = useTestServer();

  it('answers {ambulances:[…]} with id, license_plate, status, driver email and location', async () => {
    const res = await s.api('GET', '/api/ambulances', { token: await s.signIn('operator') });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['ambulances']);
    expect(res.body.ambulances).toHaveLength(8);
    expect(res.body.ambulances.map((a: any) => a.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const a of res.body.ambulances) {
      expect(a).toMatchObject({ license_plate: plateOf(a.id), status: 'available', email: driverOf(a.id) });
      expect(Object.keys(a.location).sort()).toEqual(['battery', 'latitude', 'longitude', 'placeName', 'source', 'updated_at']);
    }
    expect(res.body.ambulances[0].location).toMatchObject({ placeName: 'Banjara Hills, Hyderabad', latitude: 17.4126, longitude: 78.4482 });
  });

  it('requires a bearer token', async () => {
    expect(await s.api('GET', '/api/ambulances')).toMatchObject({ status: 401, body: { error: 'Authentication required' } });
  });
});

describe('POST /api/ambulances', () => {
  const s = useTestServer();
  let admin: string;
  beforeAll(async () => {
    admin = await s.signIn('admin');
  });

  const create = (body: unknown, token = admin) => s.api('POST', '/api/ambulances', { token, body });

  it('creates an available ambulance by default (201)', async () => {
    const res = await create({ license_plate: ' TS10 AB 2001 ' });
    expect(res.status).toBe(201);
    expect(res.body.ambulance).toMatchObject({ id: 9, license_plate: 'TS10 AB 2001', status: 'available', email: null, location: null, version: 1 });
    expect(await ambulanceRow(s, 9)).toMatchObject({ license_plate: 'TS10 AB 2001', status: 'available', driver_email: null });
    const listed = (await s.api('GET', '/api/ambulances', { token: admin })).body.ambulances;
    expect(listed.find((a: any) => a.id === 9)).toMatchObject({ license_plate: 'TS10 AB 2001' });
  });

  it('stores the driver e-mail, a maintenance status and a starting position', async () => {
    const res = await create({ license_plate: 'TS10-AB-2002', status: 'maintenance', email: 'Crew2@Example.com', latitude: 17.5, longitude: 78.6 });
    expect(res.status).toBe(201);
    expect(res.body.ambulance).toMatchObject({
      license_plate: 'TS10-AB-2002', status: 'maintenance', email: 'crew2@example.com',
      location: { placeName: null, latitude: 17.5, longitude: 78.6 },
    });
  });

  it.each([
    ['busy at creation', { license_plate: 'TS10 AB 3001', status: 'busy' }, 'status: must be available or maintenance (busy comes from a case)'],
    ['an empty plate', { license_plate: '' }, 'license_plate: required'],
    ['a blank plate', { license_plate: '   ' }, 'license_plate: required'],
    ['no plate', { status: 'available' }, 'license_plate: required'],
    ['a malformed driver e-mail', { license_plate: 'TS10 AB 3002', email: 'driver@' }, 'email: Invalid email address'],
    ['an unknown status', { license_plate: 'TS10 AB 3003', status: 'parked' }, 'status: must be available or maintenance (busy comes from a case)'],
    ['a latitude without a longitude', { license_plate: 'TS10 AB 3004', latitude: 17.4 }, 'latitude: latitude and longitude go together'],
    ['a plate with other characters', { license_plate: 'TS10/AB<3005>' }, 'license_plate: letters, digits, spaces and dashes only'],
  ])('refuses %s with 400 and writes nothing', async (_what, body, error) => {
    const before = await rowCount(s, 'ambulances');
    expect(await create(body)).toMatchObject({ status: 400, body: { error } });
    expect(await rowCount(s, 'ambulances')).toBe(before);
  });

  it.each(['ts09 ea 1001', 'TS09EA1001', 'ts09-ea-1001', 'TS09  EA 1001'])('refuses the seeded plate typed as %j with 409', async (plate) => {
    const before = await rowCount(s, 'ambulances');
    expect(await create({ license_plate: plate })).toMatchObject({ status: 409, body: { error: 'An ambulance with license plate TS09 EA 1001 already exists' } });
    expect(await rowCount(s, 'ambulances')).toBe(before);
  });

  it('is refused to an operator with 403 and to no token with 401', async () => {
    const before = await rowCount(s, 'ambulances');
    expect(await create({ license_plate: 'TS10 AB 4001' }, await s.signIn('operator')))
      .toMatchObject({ status: 403, body: { error: 'Only admins can add ambulances' } });
    expect(await s.api('POST', '/api/ambulances', { body: { license_plate: 'TS10 AB 4001' } }))
      .toMatchObject({ status: 401, body: { error: 'Authentication required' } });
    expect(await rowCount(s, 'ambulances')).toBe(before);
  });
});

describe('PUT /api/ambulances/{id} and DELETE /api/ambulances/{id}', () => {
  const s = useTestServer();
  let admin: string;
  let operator: string;
  beforeAll(async () => {
    [admin, operator] = await Promise.all([s.signIn('admin'), s.signIn('operator')]);
  });

  it('lets an admin edit every field', async () => {
    const before = await ambulanceRow(s, 3);
    const res = await s.api('PUT', '/api/ambulances/3', { token: admin, body: { license_plate: 'TS11 ZZ 9999', status: 'maintenance', email: 'new.driver@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.ambulance).toMatchObject({ id: 3, license_plate: 'TS11 ZZ 9999', status: 'maintenance', email: 'new.driver@example.com', version: before.version + 1 });
    expect(res.body.ambulance.updated_at).toMatch(ISO_TIME);
    expect(await ambulanceRow(s, 3)).toMatchObject({ license_plate: 'TS11 ZZ 9999', plate_key: plateKey('TS11 ZZ 9999'), status: 'maintenance', driver_email: 'new.driver@example.com' });
  });

  it("refuses renaming to another ambulance's plate with 409", async () => {
    const before = await ambulanceRow(s, 4);
    expect(await s.api('PUT', '/api/ambulances/4', { token: admin, body: { license_plate: 'ts09-ea-1005' } }))
      .toMatchObject({ status: 409, body: { error: 'An ambulance with license plate TS09 EA 1005 already exists' } });
    expect(await ambulanceRow(s, 4)).toEqual(before);
    // Its own plate typed differently is not a conflict.
    const own = await s.api('PUT', '/api/ambulances/4', { token: admin, body: { license_plate: 'ts09 ea 1004' } });
    expect(own.status).toBe(200);
    expect(own.body.ambulance.license_plate).toBe('ts09 ea 1004');
  });

  it('lets an operator change the status only', async () => {
    const ok = await s.api('PUT', '/api/ambulances/5', { token: operator, body: { status: 'maintenance' } });
    expect(ok.status).toBe(200);
    expect(ok.body.ambulance.status).toBe('maintenance');
    const before = await ambulanceRow(s, 5);
    expect(await s.api('PUT', '/api/ambulances/5', { token: operator, body: { license_plate: 'HACKED 1' } }))
      .toMatchObject({ status: 403, body: { error: "Only admins can change an ambulance's license plate, driver email or capability" } });
    expect(await s.api('PUT', '/api/ambulances/5', { token: operator, body: { status: 'available', email: 'x@example.com' } }))
      .toMatchObject({ status: 403, body: { error: "Only admins can change an ambulance's license plate, driver email or capability" } });
    expect(await ambulanceRow(s, 5)).toEqual(before);
  });

  it("accepts an operator's ambulance form that repeats the unchanged plate and driver e-mail", async () => {
    const before = await ambulanceRow(s, 6);
    const res = await s.api('PUT', '/api/ambulances/6', { token: operator, body: { license_plate: before.license_plate, email: before.driver_email, status: 'maintenance' } });
    expect(res.status).toBe(200);
    expect(res.body.ambulance).toMatchObject({ license_plate: before.license_plate, email: before.driver_email, status: 'maintenance', version: before.version + 1 });
    // The same plate typed differently is a change, and refused.
    expect(await s.api('PUT', '/api/ambulances/6', { token: operator, body: { license_plate: before.license_plate.toLowerCase(), status: 'available' } }))
      .toMatchObject({ status: 403, body: { error: "Only admins can change an ambulance's license plate, driver email or capability" } });
    expect((await ambulanceRow(s, 6)).status).toBe('maintenance');
  });

  it('refuses an empty update, an unknown status and an unknown ambulance', async () => {
    expect(await s.api('PUT', '/api/ambulances/6', { token: admin, body: {} })).toMatchObject({ status: 400, body: { error: 'nothing to update' } });
    expect(await s.api('PUT', '/api/ambulances/6', { token: admin, body: { status: 'parked' } }))
      .toMatchObject({ status: 400, body: { error: 'status: must be available, busy or maintenance' } });
    expect(await s.api('PUT', '/api/ambulances/99', { token: admin, body: { status: 'available' } }))
      .toMatchObject({ status: 404, body: { error: 'Ambulance details not found' } });
  });

  it('lets an admin delete an ambulance; 404 afterwards and for unknown ids; 403 for an operator', async () => {
    expect(await s.api('DELETE', '/api/ambulances/7', { token: operator })).toMatchObject({ status: 403, body: { error: 'Only admins can delete ambulances' } });
    expect(await ambulanceRow(s, 7)).toBeDefined();
    expect(await s.api('DELETE', '/api/ambulances/7', { token: admin })).toMatchObject({ status: 200, body: { success: true, id: 7 } });
    expect(await ambulanceRow(s, 7)).toBeUndefined();
    for (const id of ['7', '99', 'abc', '0']) {
      expect(await s.api('DELETE', `/api/ambulances/${id}`, { token: admin })).toMatchObject({ status: 404, body: { error: 'Ambulance details not found' } });
    }
    expect(await rowCount(s, 'ambulances')).toBe(7);
  });

  it('deletes an ambulance with a closed case and a position history: the case stays, unassigned', async () => {
    const caseId = await dispatchCase(s, operator, 8);
    expect((await s.api('POST', '/api/ambulances/8/position', { token: operator, body: { latitude: 17.3, longitude: 78.5 } })).status).toBe(200);
    expect((await updateCase(s, operator, caseId, { status: 'closed' })).status).toBe(200);
    expect(await s.api('DELETE', '/api/ambulances/8', { token: admin })).toMatchObject({ status: 200, body: { success: true, id: 8 } });
    expect(await ambulanceRow(s, 8)).toBeUndefined();
    expect(await caseRow(s, caseId)).toMatchObject({ status: 'closed', ambulance_id: null });
    expect(await rowCount(s, 'ambulance_positions', { ambulance_id: 8 })).toBe(0);
    const listed = (await s.api('GET', '/api/cases', { token: operator })).body.cases.find((c: any) => c.id === caseId);
    expect(listed).toMatchObject({ ambulance_id: null, license_plate: null });
  });
});

describe('POST /api/ambulances/{id}/position', () => {
  const s = useTestServer();
  let operator: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
  });

  const post = (id: number | string, body: unknown, token: string | null = operator) =>
    s.api('POST', `/api/ambulances/${id}/position`, { token: token ?? undefined, body });
  const history = (id: number) => s.ctx.db('ambulance_positions').where({ ambulance_id: id }).orderBy('id');

  it('accepts a staff bearer, stores a history row and moves the latest position', async () => {
    const versionBefore = (await ambulanceRow(s, 2)).version;
    const res = await post(2, { latitude: 17.45, longitude: 78.51, accuracy: 8, heading: 90, speed: 12.5 });
    expect(res).toMatchObject({ status: 200, body: { ok: true, latest: true } });
    const rows = await history(2);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ latitude: 17.45, longitude: 78.51, accuracy: 8, heading: 90, speed: 12.5, source: 'staff' });
    expect(rows[0].recorded_at).toMatch(ISO_TIME);
    const amb = await ambulanceRow(s, 2);
    expect(amb).toMatchObject({ latitude: 17.45, longitude: 78.51, position_at: rows[0].recorded_at, version: versionBefore + 1 });
    const listed = (await s.api('GET', '/api/ambulances', { token: operator })).body.ambulances.find((a: any) => a.id === 2);
    expect(listed.location).toMatchObject({ latitude: 17.45, longitude: 78.51, updated_at: rows[0].recorded_at });
  });

  it('keeps an older fix in the history without moving the latest ({ok:true, latest:false})', async () => {
    const latestBefore = await ambulanceRow(s, 2);
    const old = new Date(Date.now() - 60_000).toISOString();
    const res = await post(2, { latitude: 17.1, longitude: 78.1, timestamp: old });
    expect(res).toMatchObject({ status: 200, body: { ok: true, latest: false } });
    const rows = await history(2);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ latitude: 17.1, longitude: 78.1, recorded_at: old });
    expect(await ambulanceRow(s, 2)).toEqual(latestBefore);
  });

  it('moves the latest for a newer fix given as epoch milliseconds', async () => {
    const at = Date.now() - 1000;
    // Older than every fix so far: history only.
    expect((await post(2, { latitude: 17.2, longitude: 78.2, timestamp: at - 120_000 })).body).toEqual({ ok: true, latest: false });
    const res = await post(2, { latitude: 17.3, longitude: 78.3, timestamp: Date.now() + 1000 });
    expect(res.body).toEqual({ ok: true, latest: true });
    expect(await ambulanceRow(s, 2)).toMatchObject({ latitude: 17.3, longitude: 78.3 });
    expect(await history(2)).toHaveLength(4);
  });

  it.each([
    ['a future timestamp', { latitude: 17.4, longitude: 78.4, timestamp: new Date(Date.now() + 3_600_000).toISOString() }, 'timestamp: is in the future'],
    ['latitude 91', { latitude: 91, longitude: 78.4 }, 'latitude: Too big: expected number to be <=90'],
    ['longitude -181', { latitude: 17.4, longitude: -181 }, 'longitude: Too small: expected number to be >=-180'],
    ['numbers sent as strings', { latitude: '17.4', longitude: '78.4' }, 'latitude: Invalid input: expected number, received string'],
    ['a null latitude', { latitude: null, longitude: 78.4 }, 'latitude: Invalid input: expected number, received null'],
    ['a missing longitude', { latitude: 17.4 }, 'longitude: required'],
    ['a text timestamp', { latitude: 17.4, longitude: 78.4, timestamp: 'yesterday' }, 'timestamp: Invalid ISO datetime'],
    ['a negative speed', { latitude: 17.4, longitude: 78.4, speed: -3 }, 'speed: Too small: expected number to be >=0'],
  ])('refuses %s with 400 and stores nothing', async (_what, body, error) => {
    const before = await ambulanceRow(s, 3);
    const count = await rowCount(s, 'ambulance_positions');
    expect(await post(3, body)).toMatchObject({ status: 400, body: { error } });
    expect(await rowCount(s, 'ambulance_positions')).toBe(count);
    expect(await ambulanceRow(s, 3)).toEqual(before);
  });

  it('refuses NaN (not JSON) with 400', async () => {
    const count = await rowCount(s, 'ambulance_positions');
    const res = await s.api('POST', '/api/ambulances/3/position', { token: operator, raw: '{"latitude": NaN, "longitude": 78.4}' });
    expect(res).toMatchObject({ status: 400, body: { error: 'Request body is not valid JSON' } });
    expect(await rowCount(s, 'ambulance_positions')).toBe(count);
  });

  it('answers 404 for an unknown ambulance and 401 without any credential', async () => {
    const count = await rowCount(s, 'ambulance_positions');
    expect(await post(99, { latitude: 17.4, longitude: 78.4 })).toMatchObject({ status: 404, body: { error: 'Ambulance details not found' } });
    expect(await post('x1', { latitude: 17.4, longitude: 78.4 })).toMatchObject({ status: 404, body: { error: 'Ambulance details not found' } });
    expect(await post(3, { latitude: 17.4, longitude: 78.4 }, null)).toMatchObject({ status: 401, body: { error: 'Authentication required' } });
    expect(await post(3, { latitude: 17.4, longitude: 78.4 }, 'not-a-session'))
      .toMatchObject({ status: 401, body: { error: 'Your session has expired or was revoked; please sign in again' } });
    expect(await rowCount(s, 'ambulance_positions')).toBe(count);
  });
});

describe('GET /api/ambulances/:id/trail', () => {
  const s = useTestServer();

  it('answers the last 30 minutes of fixes, oldest first, and 404 for an unknown ambulance', async () => {
    const token = await s.signIn('operator');
    const now = Date.now();
    const fixes = [now - 40 * 60_000, now - 20_000, now - 10_000].map((t, i) => ({ latitude: 17.4 + i / 100, longitude: 78.4, timestamp: t }));
    for (const f of fixes) expect((await s.api('POST', '/api/ambulances/2/position', { token, body: f })).status).toBe(200);
    const res = await s.api('GET', '/api/ambulances/2/trail', { token });
    expect(res.body.positions).toEqual(fixes.slice(1).map((f) => ({ latitude: f.latitude, longitude: f.longitude, recorded_at: new Date(f.timestamp).toISOString() })));
    expect(await s.api('GET', '/api/ambulances/99/trail', { token })).toMatchObject({ status: 404, body: { error: 'Ambulance details not found' } });
  });
});
