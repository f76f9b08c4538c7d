import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { memoryLog } from '../../testing/memoryLog';
import { nextEvent, startTestServer, useTestServer } from '../../testing/testServer';
import { OWNTRACKS_REALM, UNKNOWN_DEVICE } from './devices';

/**
 * Positions from GPS apps and trackers (DOMAIN.md §4): the device id an admin issues, the
 * OsmAnd protocol (query, form and JSON), OwnTracks' HTTP mode, and that both go through the
 * driver page's writer (validation, the future-time clamp, replays, live fan-out).
 */
const s = useTestServer({ env: { LINK_LIMIT_PER_MIN: '100000', LINK_LIMIT_PER_CLIENT: '100000' } });
let admin: string;
/** Device ids by ambulance, issued in beforeAll (ambulances 1–5; 6–8 are issued by the tests that need them). */
const ids: Record<number, string> = {};

// Fix times in the recent past, after the seeded positions (moved back below): each test takes its own.
const base = Date.now() - 240_000;
let tick = 0;
const nextTime = () => base + ++tick * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

const issue = (ambulanceId: number, token = admin) => s.api('POST', `/api/ambulances/${ambulanceId}/device`, { token });
const osmand = (params: Record<string, string | number>) => s.api('GET', `/api/devices/osmand?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`);
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const owntracks = (body: unknown, headers: Record<string, string> = {}) => s.api('POST', '/api/devices/owntracks', { body, headers });
const rows = (ambulanceId: number) => s.ctx.db('ambulance_positions').where({ ambulance_id: ambulanceId }).orderBy('id');
const listed = async (ambulanceId: number) =>
  ((await s.api('GET', '/api/ambulances', { token: admin })).body.ambulances as { id: number; location: any }[]).find((a) => a.id === ambulanceId)!;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

beforeAll(async () => {
  admin = await s.signIn('admin');
  await s.ctx.db('ambulances').update({ position_at: iso(Date.now() - 600_000) });
  for (const id of [1, 2, 3, 4, 5]) ids[id] = (await issue(id)).body.device_id;
});

describe('POST /api/ambulances/{id}/device', () => {
  it('answers a 128-bit device id once, with set-up steps for Traccar Client and OwnTracks; only its hash is stored', async () => {
    const res = await issue(6);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['device_id', 'instructions']);
    const { device_id: id, instructions } = res.body;
    expect(id).toMatch(/^[0-9a-f]{32}$/); // 32 hex characters: 128 bits
    expect(instructions.traccar).toContain(`Device identifier: ${id}`);
    expect(instructions.traccar).toContain('Server URL: http://lifeline.test/api/devices/osmand');
    expect(instructions.owntracks).toContain('Connection mode: HTTP');
    expect(instructions.owntracks).toContain('http://lifeline.test/api/devices/owntracks');
    expect(instructions.owntracks).toContain(`Password: ${id}`);
    expect(instructions.owntracks).toContain('Username: TS09 EA 1006');
    const row = await s.ctx.db('ambulances').where({ id: 6 }).first();
    expect(row.device_hash).toBe(sha256(id));
    expect(Date.parse(row.device_issued_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(row)).not.toContain(id);
  });

  it('never shows the id or its hash in GET /api/ambulances', async () => {
    const res = await s.api('GET', '/api/ambulances', { token: admin });
    const text = JSON.stringify(res.body);
    const hashes = (await s.ctx.db('ambulances').whereNotNull('device_hash').pluck('device_hash')) as string[];
    expect(hashes.length).toBeGreaterThanOrEqual(5);
    for (const secret of [...Object.values(ids), ...hashes]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/device/);
  });

  it('replaces the earlier id: it stops working at once, the new one works', async () => {
    const old = (await issue(7)).body.device_id;
    expect((await osmand({ id: old, lat: 17.41, lon: 78.41, timestamp: nextTime() })).status).toBe(200);
    const fresh = (await issue(7)).body.device_id;
    expect(fresh).not.toBe(old);
    expectError(await expectNoWrite(s.ctx.db, () => osmand({ id: old, lat: 17.42, lon: 78.42, timestamp: nextTime() })), 400, UNKNOWN_DEVICE);
    expect((await osmand({ id: fresh, lat: 17.43, lon: 78.43, timestamp: nextTime() })).status).toBe(200);
  });

  it('is for admins only (operator 403, no session 401), and 404 for an unknown ambulance', async () => {
    const operator = await s.signIn('operator');
    expectError(await expectNoWrite(s.ctx.db, () => issue(8, operator)), 403, 'Only admins can give an ambulance a device identity');
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/ambulances/8/device')), 401, 'Authentication required');
    expectError(await expectNoWrite(s.ctx.db, () => issue(999)), 404, 'Ambulance details not found');
  });
});

describe('OsmAnd protocol: GET /api/devices/osmand', () => {
  it('stores every parameter: knots to m/s, bearing, accuracy, battery; the row and the fleet say osmand', async () => {
    const t = nextTime();
    const res = await osmand({ id: ids[1], lat: 17.4001, lon: 78.4001, timestamp: Math.floor(t / 1000), speed: 10, bearing: 90, altitude: 512, accuracy: 12, hdop: 1.2, batt: 76, valid: 'true' });
    expect(res).toMatchObject({ status: 200, body: { ok: true, latest: true } });
    const row = (await rows(1)).at(-1);
    expect(row).toMatchObject({ latitude: 17.4001, longitude: 78.4001, heading: 90, accuracy: 12, battery: 76, source: 'osmand', recorded_at: iso(Math.floor(t / 1000) * 1000) });
    expect(row.speed).toBeCloseTo(5.144, 3); // 10 knots
    expect((await listed(1)).location).toMatchObject({ latitude: 17.4001, longitude: 78.4001, source: 'osmand', battery: 76 });
  });

  it.each([
    ['epoch seconds', (t: number) => String(t / 1000)],
    ['epoch milliseconds', (t: number) => String(t)],
    ['ISO 8601', (t: number) => iso(t)],
    ['ISO 8601 with an offset', (t: number) => iso(t).replace('Z', '+00:00')],
  ])('reads the timestamp as %s', async (_what, format) => {
    const t = nextTime();
    expect((await osmand({ id: ids[2], lat: 17.4, lon: 78.4, timestamp: format(t) })).status).toBe(200);
    expect((await rows(2)).at(-1).recorded_at).toBe(iso(t));
  });

  it('takes location=lat,lon, the deviceid and heading aliases, and an id typed in capitals', async () => {
    const t = nextTime();
    expect((await osmand({ deviceid: ids[2].toUpperCase(), location: '17.4321,78.4321', heading: 270, timestamp: t })).status).toBe(200);
    expect((await rows(2)).at(-1)).toMatchObject({ latitude: 17.4321, longitude: 78.4321, heading: 270, recorded_at: iso(t), source: 'osmand' });
  });

  it('treats an unknown speed or course (-1, as iOS sends) as unknown', async () => {
    const t = nextTime();
    expect((await osmand({ id: ids[2], lat: 17.41, lon: 78.41, speed: -1, bearing: -1, timestamp: t })).status).toBe(200);
    expect((await rows(2)).at(-1)).toMatchObject({ speed: null, heading: null, recorded_at: iso(t) });
  });

  it('stores a fix without a timestamp as taken on arrival', async () => {
    const before = Date.now();
    expect((await osmand({ id: ids[2], lat: 17.44, lon: 78.44 })).status).toBe(200);
    expect(Date.parse((await rows(2)).at(-1).recorded_at)).toBeGreaterThanOrEqual(before);
  });

  it.each([
    ['valid=false', { valid: 'false' }, 'valid=false'],
    ['valid=0', { valid: '0' }, 'valid=false'],
    ['a 0,0 fix', { lat: 0, lon: 0 }, 'no fix (0,0)'],
  ])('acknowledges %s with 200 and stores nothing', async (_what, extra, ignored) => {
    const res = await expectNoWrite(s.ctx.db, () => osmand({ id: ids[3], lat: 17.4, lon: 78.4, timestamp: nextTime(), ...extra }));
    expect(res).toMatchObject({ status: 200, body: { ok: true, ignored } });
  });

  it.each([
    ['no id', { lat: 17.4, lon: 78.4 }, 'id: required'],
    ['an unknown id', { id: 'f'.repeat(32), lat: 17.4, lon: 78.4 }, UNKNOWN_DEVICE],
    ['no position', { id: 'KNOWN' }, 'lat: required (lat and lon, or location=lat,lon)'],
    ['a latitude that is not a number', { id: 'KNOWN', lat: 'north', lon: 78.4 }, 'lat: must be a number'],
    ['a latitude out of range', { id: 'KNOWN', lat: 91, lon: 78.4 }, /^latitude: /],
    ['a timestamp that is not a time', { id: 'KNOWN', lat: 17.4, lon: 78.4, timestamp: 'yesterday' }, 'timestamp: must be epoch seconds, epoch milliseconds, ISO 8601 with a time zone or yyyy-MM-dd HH:mm:ss (UTC)'],
    ['a battery over 100 %', { id: 'KNOWN', lat: 17.4, lon: 78.4, batt: 140 }, /^battery: /],
    ['a speed no ambulance reaches (200 knots)', { id: 'KNOWN', lat: 17.4, lon: 78.4, speed: 200 }, 'speed: must be at most 90 m/s'],
  ])('400 for %s, and nothing is stored', async (_what, params, error) => {
    const withId: Record<string, string | number> = 'id' in params && params.id === 'KNOWN' ? { ...params, id: ids[3] } : params;
    expectError(await expectNoWrite(s.ctx.db, () => osmand(withId)), 400, error);
  });

  it('refuses a fix dated beyond the allowed clock skew (400), and stores one slightly ahead as taken on arrival', async () => {
    expectError(await expectNoWrite(s.ctx.db, () => osmand({ id: ids[3], lat: 17.4, lon: 78.4, timestamp: Date.now() + 3_600_000 })), 400, 'timestamp: is in the future');
    const res = await osmand({ id: ids[3], lat: 17.45, lon: 78.45, timestamp: Date.now() + 10_000 });
    const after = Date.now();
    expect(res.status).toBe(200);
    const row = (await rows(3)).at(-1);
    expect(row).toMatchObject({ latitude: 17.45 });
    expect(Date.parse(row.recorded_at)).toBeLessThanOrEqual(after);
    expect(row.recorded_at).toBe(row.received_at);
  });

  it('stores a replayed fix once and never moves the marker back to it', async () => {
    const t1 = nextTime();
    const t2 = nextTime();
    const fix = { id: ids[4], lat: 17.46, lon: 78.46, timestamp: t1 };
    const before = (await rows(4)).length;
    expect((await osmand(fix)).status).toBe(200);
    expect((await osmand({ id: ids[4], lat: 17.47, lon: 78.47, timestamp: t2 })).status).toBe(200);
    expect(await osmand(fix)).toMatchObject({ status: 200, body: { ok: true, latest: false } });
    expect((await rows(4)).length).toBe(before + 2);
    expect((await listed(4)).location).toMatchObject({ latitude: 17.47, updated_at: iso(t2) });
  });
});

describe("OsmAnd protocol: every time form Traccar's decoder reads (issue 26, item 10)", () => {
  // The request shapes of Traccar's OsmAndProtocolDecoderTest (their device ids swapped for one issued here): epoch
  // seconds, epoch milliseconds, ISO 8601 with a zone, and `yyyy-MM-dd HH:mm:ss` in UTC (`+` is a space in a query).
  const traccar: [string, string][] = [
    ['id=123456&timestamp=1377177267&lat=60.0&lon=30.0', '2013-08-22T13:14:27.000Z'],
    ['id=902064&lat=42.06288&lon=-88.23412&timestamp=2016-01-27T18%3A55%3A47Z&hdop=6.0&altitude=224.0&speed=0.0', '2016-01-27T18:55:47.000Z'],
    ['id=902064&lat=42.06288&lon=-88.23412&timestamp=1442068686579&hdop=6.0&altitude=224.0&speed=0.0', '2015-09-12T14:38:06.579Z'],
    ['id=861001000727626&lat=52.6969416&lon=-1.7756976&timestamp=1504763810&hdop=3&altitude=0&speed=0', '2017-09-07T05:56:50.000Z'],
    ['lat=49.60688&lon=6.15788&timestamp=2014-06-04+09%3A10%3A11&altitude=384.7&speed=0.0&id=353861053849681', '2014-06-04T09:10:11.000Z'],
    ['timestamp=1377177267000&lat=60.0&lon=30.1&id=123456', '2013-08-22T13:14:27.000Z'],
    ['id=123456&timestamp=1377177267&location=60.0,30.2', '2013-08-22T13:14:27.000Z'],
    ['id=123456&timestamp=2016-01-27T20%3A55%3A47%2B02%3A00&lat=60.0&lon=30.3', '2016-01-27T18:55:47.000Z'],
  ];
  const withIssuedId = (query: string, id: string) => query.replace(/(^|&)id=\d+/, `$1id=${id}`);
  /** The row stored for the request, taken out again: shapes sharing an instant would otherwise be one fix's replays. */
  const stored = async (ambulanceId: number, query: string, at: string) => {
    const q = new URLSearchParams(query);
    const [lat, lon] = q.has('location') ? q.get('location')!.split(',').map(Number) : [Number(q.get('lat')), Number(q.get('lon'))];
    const row = await s.ctx.db('ambulance_positions').where({ ambulance_id: ambulanceId, latitude: lat, longitude: lon, recorded_at: at, source: 'osmand' }).first();
    if (row) await s.ctx.db('ambulance_positions').where({ id: row.id }).delete();
    return row;
  };

  it.each(traccar)('GET ?%s is stored as taken at %s', async (query, at) => {
    const res = await s.api('GET', `/api/devices/osmand?${withIssuedId(query, ids[1])}`);
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    expect(await stored(1, query, at)).toBeDefined();
  });

  it.each(traccar)('POST form %s is stored as taken at %s', async (query, at) => {
    const res = await s.api('POST', '/api/devices/osmand', { raw: withIssuedId(query, ids[2]), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    expect(await stored(2, query, at)).toBeDefined();
  });

  it.each([
    '2014-02-30+09%3A10%3A11', '2014-13-04+09%3A10%3A11', '2014-06-04+24%3A00%3A00', '2014-06-04+09%3A60%3A11', '2014-06-04+09%3A10%3A61',
    '2014-06-04+09%3A10', '2016-02-30T18%3A55%3A47Z', '2016-01-27T18%3A55%3A47', '2014-06-04T09%3A10%3A11%2B25%3A00', 'yesterday',
  ])('400 for the impossible or zoneless time %s, and nothing is stored', async (time) => {
    expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', `/api/devices/osmand?id=${ids[1]}&lat=17.4&lon=78.4&timestamp=${time}`)), 400,
      'timestamp: must be epoch seconds, epoch milliseconds, ISO 8601 with a time zone or yyyy-MM-dd HH:mm:ss (UTC)');
  });
});

describe('OsmAnd protocol: POST /api/devices/osmand', () => {
  it('reads a form body', async () => {
    const t = nextTime();
    const raw = new URLSearchParams({ id: ids[5], lat: '17.48', lon: '78.48', timestamp: String(t), speed: '20', batt: '55' }).toString();
    const res = await s.api('POST', '/api/devices/osmand', { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    const row = (await rows(5)).at(-1);
    expect(row).toMatchObject({ latitude: 17.48, longitude: 78.48, battery: 55, source: 'osmand', recorded_at: iso(t) });
    expect(row.speed).toBeCloseTo(20 * 0.514444, 3);
  });

  it('reads the parameters from the query of an empty POST (as Traccar Client sends them)', async () => {
    const t = nextTime();
    const res = await s.api('POST', `/api/devices/osmand?id=${ids[5]}&lat=17.49&lon=78.49&timestamp=${t}`);
    expect(res.status).toBe(200);
    expect((await rows(5)).at(-1)).toMatchObject({ latitude: 17.49, recorded_at: iso(t) });
  });

  it('reads the JSON form: speed already in m/s, battery level 0–1 as percent', async () => {
    const t = nextTime();
    const res = await s.api('POST', '/api/devices/osmand', {
      body: {
        device_id: ids[5],
        location: {
          timestamp: iso(t),
          coords: { latitude: 17.5, longitude: 78.5, accuracy: 8, speed: 12.5, heading: 45, altitude: 530 },
          battery: { level: 0.42, is_charging: false },
          is_moving: true,
        },
      },
    });
    expect(res).toMatchObject({ status: 200, body: { ok: true, latest: true } });
    expect((await rows(5)).at(-1)).toMatchObject({ latitude: 17.5, longitude: 78.5, accuracy: 8, speed: 12.5, heading: 45, battery: 42, source: 'osmand', recorded_at: iso(t) });
    expect((await listed(5)).location).toMatchObject({ source: 'osmand', battery: 42 });
  });

  it('acknowledges a JSON 0,0 fix without storing it; 400 for a JSON body without device_id or coordinates', async () => {
    const body = (coords: unknown, deviceId: string | undefined = ids[5]) => ({ ...(deviceId && { device_id: deviceId }), location: { timestamp: iso(nextTime()), coords } });
    const zero = await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/devices/osmand', { body: body({ latitude: 0, longitude: 0 }) }));
    expect(zero).toMatchObject({ status: 200, body: { ok: true, ignored: 'no fix (0,0)' } });
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/devices/osmand', { body: body({ latitude: 17.4, longitude: 78.4 }, '') })), 400, 'device_id: required');
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/devices/osmand', { body: body({ longitude: 78.4 }) })), 400, /^location\.coords\.latitude: /);
  });
});

describe('OwnTracks HTTP mode: POST /api/devices/owntracks', () => {
  it('stores a location message (vel km/h to m/s, tst in seconds) before it answers []', async () => {
    const tst = Math.floor(nextTime() / 1000);
    const res = await owntracks({ _type: 'location', lat: 17.51, lon: 78.51, tst, acc: 15, alt: 520, vel: 36, cog: 180, batt: 64, tid: 'A1' }, basic('TS09 EA 1001', ids[1]));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    // Readable as soon as the answer arrived: the app counts any answer as delivered.
    expect((await rows(1)).at(-1)).toMatchObject({ latitude: 17.51, longitude: 78.51, accuracy: 15, speed: 10, heading: 180, battery: 64, source: 'owntracks', recorded_at: iso(tst * 1000) });
    expect((await listed(1)).location).toMatchObject({ source: 'owntracks', battery: 64 });
  });

  it('ignores the username: the device id is the password', async () => {
    const tst = Math.floor(nextTime() / 1000);
    expect((await owntracks({ _type: 'location', lat: 17.52, lon: 78.52, tst }, basic('', ids[1]))).status).toBe(200);
    expect((await rows(1)).at(-1)).toMatchObject({ latitude: 17.52, recorded_at: iso(tst * 1000) });
  });

  it.each([
    ['no credentials', (): Record<string, string> => ({})],
    ['a wrong password', () => basic('TS09 EA 1001', 'f'.repeat(32))],
    ['the device id as the username', () => basic(ids[1], '')],
    ['the device id as a bearer token', () => ({ authorization: `Bearer ${ids[1]}` })],
  ])('401 with a Basic challenge for %s, and nothing is stored', async (_what, headers) => {
    const res = await expectNoWrite(s.ctx.db, () => owntracks({ _type: 'location', lat: 17.4, lon: 78.4, tst: Math.floor(nextTime() / 1000) }, headers()));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(OWNTRACKS_REALM);
  });

  it('answers [] to other message types without storing anything', async () => {
    for (const message of [{ _type: 'transition', event: 'enter', tst: 1 }, { _type: 'lwt', tst: 1 }, { _type: 'encrypted', data: 'x' }]) {
      const res = await expectNoWrite(s.ctx.db, () => owntracks(message, basic('crew', ids[1])));
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: [] });
    }
  });

  it('400 for a location message without coordinates or time, and for a fix far in the future', async () => {
    const auth = basic('crew', ids[1]);
    expectError(await expectNoWrite(s.ctx.db, () => owntracks({ _type: 'location', lon: 78.4, tst: 1_700_000_000 }, auth)), 400, /^lat: /);
    expectError(await expectNoWrite(s.ctx.db, () => owntracks({ _type: 'location', lat: 17.4, lon: 78.4 }, auth)), 400, /^tst: /);
    expectError(await expectNoWrite(s.ctx.db, () => owntracks({ lat: 17.4, lon: 78.4 }, auth)), 400, /^_type: /);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expectError(await expectNoWrite(s.ctx.db, () => owntracks({ _type: 'location', lat: 17.4, lon: 78.4, tst: future }, auth)), 400, 'timestamp: is in the future');
  });
});

describe('live fan-out', () => {
  // Ambulance 1: its latest fix is older than the one sent here (only a fix that becomes the latest is published).
  it('a staff socket hears a device position with its source and battery', async () => {
    const sock = await s.socket({ token: await s.signIn('operator') });
    try {
      const tst = Math.floor(nextTime() / 1000);
      // This fix's batch, not an earlier test's fix of the same unit that was still waiting for the staff tick when the socket joined.
      const heard = nextEvent<{ positions: any[] }>(sock, 'ambulance.position', 3000, (b) => b.positions.some((p) => p.ambulanceId === 1 && p.recorded_at === iso(tst * 1000)));
      expect((await owntracks({ _type: 'location', lat: 17.53, lon: 78.53, tst, batt: 33 }, basic('crew', ids[1]))).status).toBe(200);
      const batch = await heard;
      expect(batch.positions.find((p) => p.ambulanceId === 1)).toMatchObject({ latitude: 17.53, longitude: 78.53, source: 'owntracks', battery: 33, recorded_at: iso(tst * 1000) });
    } finally {
      sock.disconnect();
    }
  });
});

describe('limits and logs', () => {
  const mem = memoryLog('debug');
  let limited: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    limited = await startTestServer({ log: mem.log, env: { LINK_LIMIT_PER_MIN: '3' } });
  });
  afterAll(() => limited?.dispose());

  it('counts each device like a driver link (429 past LINK_LIMIT_PER_MIN), apart from other devices, and logs no device id', async () => {
    const token = await limited.signIn('admin');
    const [a, b] = [(await limited.api('POST', '/api/ambulances/1/device', { token })).body.device_id, (await limited.api('POST', '/api/ambulances/2/device', { token })).body.device_id];
    const send = (id: string) => limited.api('GET', `/api/devices/osmand?id=${id}&lat=17.4&lon=78.4`);
    expect([(await send(a)).status, (await send(a)).status, (await send(a)).status]).toEqual([200, 200, 200]);
    const over = await send(a);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await send(b)).status).toBe(200);
    const auth = { authorization: `Basic ${Buffer.from(`crew:${b}`).toString('base64')}` };
    expect((await limited.api('POST', '/api/devices/owntracks', { body: { _type: 'location', lat: 17.4, lon: 78.4, tst: Math.floor(Date.now() / 1000) }, headers: auth })).status).toBe(200);
    // Requests were logged (the check would prove nothing otherwise), and no line holds a device id.
    expect(mem.entries().some((e) => e.msg === 'request' && e.path === '/api/devices/osmand')).toBe(true);
    expect(mem.entries().some((e) => e.msg === 'device identity issued; any earlier one no longer works' && e.ambulanceId === 1)).toBe(true);
    for (const id of [a, b]) expect(mem.lines.filter((l) => l.includes(id))).toEqual([]);
  });
});
