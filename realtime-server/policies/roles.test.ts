import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../http/app';
import { expectError, expectNoWrite } from '../testing/assertions';
import { dispatchCase, trackingTokens, locationToken } from '../testing/dispatchHelpers';
import { useTestServer } from '../testing/testServer';
import { DEMO } from '../testing/demoAccounts';
import { type AccessRule, PRINCIPALS, type Principal, access, mayCall, permissions, principalsOf } from './permissions';

/**
 * The server's access matrix (SPEC.md §6): every REST route the router serves and
 * every socket event × every principal (anonymous, viewer-token holder, driver-token holder,
 * operator, admin), read from the one table in `permissions.ts`. A route or socket event
 * missing from that table fails here; every refusal is checked to change nothing.
 */
const NO_TOKEN = 'Authentication required';
const BAD_TOKEN = 'Your session has expired or was revoked; please sign in again';
const LINK_NOT_FOUND = 'Tracking link not found or expired';
const ONLY_WATCH = 'This link is not valid for sending positions';
const ONLY_DRIVER = 'Only a driver link may send positions';
const HOSPITAL_LINK_NOT_FOUND = 'Hospital link not found or replaced';

const s = useTestServer({ env: { SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' } });
/** Rows and tokens the requests below point at, made in beforeAll. */
const f = {
  caseId: '', // active, ambulance 1: tracking, timeline, update
  spareCaseId: '', // active, no ambulance: deleted by the admin
  linkCaseId: '', // active, ambulance 6: the viewer and driver tokens below, the patient's share link
  locationToken: '', // the patient's share link's token
  unitCaseId: '', // active, ambulance 3: the admin's unit-status step
  lateCaseId: '', // active, ambulance 4, its call received 10 minutes before: corrections of its dispatch time
  lateAssignmentId: 0,
  queued: { operator: '', admin: '' }, // waiting calls, each dispatched once by that role
  queueUnit: { operator: 0, admin: 0 }, // a free ambulance for each of them
  unitCall: { operator: '', admin: '' }, // active calls, each given one more unit by that role
  extraUnit: { operator: 0, admin: 0 }, // the free ambulance each role adds
  standDown: { operator: { caseId: '', assignmentId: 0 }, admin: { caseId: '', assignmentId: 0 } }, // a second unit each role stands down
  keptOperatorId: 0, // edited by the admin
  spareOperatorId: 0, // deleted by the admin
  viewer: '',
  driver: '',
  device: '', // ambulance 2's device id (GPS apps)
  hospitalId: 0, // a hospital with a page link
  hospital: '', // that link's token
  linkAssignmentId: 0, // ambulance 6's assignment on linkCaseId: conveyed to hospitalId, with a pre-alert
  prealertId: 0, // that pre-alert, acknowledged by the hospital
  handoverAssignmentId: 0, // a unit at hospitalId, its handover pressed by the hospital
  relinkHospitalId: 0, // given a new link by the admin (not hospitalId: its link would die)
  spareHospitalId: 0, // deleted by the admin
};

/**
 * What docs/api.md's endpoint table says about each route ("who"), restated here on purpose so
 * that a change to `access` that contradicts the documentation fails:
 * anyone, staff (operator and admin), admin, or link holders (with or without staff).
 */
type Who = 'anyone' | 'staff' | 'admin' | 'viewer+driver' | 'staff+driver' | 'hospital';
const WHO: Record<Who, Principal[]> = {
  anyone: [...PRINCIPALS],
  staff: ['operator', 'admin'],
  admin: ['admin'],
  'viewer+driver': ['viewer', 'driver'],
  'staff+driver': ['driver', 'operator', 'admin'],
  hospital: ['hospital'],
};

interface Entry {
  who: Who;
  /**
   * The request every test sends: the path with fixture ids and a valid body (so that a
   * missing refusal would show up as a write); `n` counts calls, for unique values.
   */
  url?: (p?: Principal) => string;
  body?: (n: number, p: Principal) => unknown;
  /** What a permitted caller gets with this request (the guard lets it through; the handler answers). */
  ok: number;
  /** The request's own headers (OwnTracks' Basic credentials): an `authorization` here is sent instead of a bearer token. */
  headers?: () => Record<string, string>;
  /** A refusal other than the default (401 without a session, 403 for a role without the permission). */
  refused?: (p: Principal, via: Via) => [number, string];
}

const caseBody = () => ({ to: 'patient@example.com', status: 'active', patientName: 'Asha Rao', description: 'Patient: Asha Rao, Type: Stroke' });
const operatorBody = (n: string) => ({ name: `Role Test ${n}`, email: `role.${n}@lifeline.test`, role: 'operator', shift: 1, gender: 0, phone: '555 0300' });
/** A route of the crew's (staff, or the unit's driver link): any other link is refused as not a driver link. */
const crewRefusal = (p: Principal, via: Via): [number, string] =>
  (via === 'bearer' ? [401, BAD_TOKEN] : p === 'viewer' || p === 'hospital' ? [403, ONLY_WATCH] : [401, NO_TOKEN]);
/** A hospital page's route: every caller but its link gets the one answer every bad hospital link gets. */
const hospitalRefusal = (): [number, string] => [404, HOSPITAL_LINK_NOT_FOUND];

const MATRIX: Record<string, Entry> = {
  'GET /api/health': { who: 'anyone', ok: 200 },
  'GET /api/config': { who: 'anyone', ok: 200 },
  'GET /api/openapi.json': { who: 'anyone', ok: 200 },
  'POST /api/auth/signin': { who: 'anyone', body: () => DEMO.operator, ok: 200 },
  // Without SIGNIN_CODE=email there is no challenge to answer: admitted, and told the code is not valid.
  'POST /api/auth/signin/verify': { who: 'anyone', body: () => ({ challenge: 'no-such-challenge', code: '123456' }), ok: 401 },
  'POST /api/location/:caseId': { who: 'anyone', url: () => `/api/location/${f.linkCaseId}?t=${f.locationToken}`, body: (n) => ({ latitude: 17.4 + n / 1000, longitude: 78.5 }), ok: 200 },
  'GET /api/location/:caseId': { who: 'anyone', url: () => `/api/location/${f.linkCaseId}?t=${f.locationToken}`, ok: 200 },
  // GPS apps and trackers: the device id is the credential, whoever else the caller is.
  'GET /api/devices/osmand': { who: 'anyone', url: () => `/api/devices/osmand?id=${f.device}&lat=17.4&lon=78.5`, ok: 200 },
  'POST /api/devices/osmand': { who: 'anyone', body: (n) => ({ device_id: f.device, location: { coords: { latitude: 17.4, longitude: 78.5 + n / 1000 } } }), ok: 200 },
  'POST /api/devices/owntracks': {
    who: 'anyone', headers: () => ({ authorization: `Basic ${Buffer.from(`crew:${f.device}`).toString('base64')}` }),
    body: (n) => ({ _type: 'location', lat: 17.4, lon: 78.5 + n / 1000, tst: Math.floor(Date.now() / 1000) }), ok: 200,
  },
  'GET /api/track/:ambulanceId': {
    who: 'viewer+driver', url: () => '/api/track/6', ok: 200,
    refused: () => [404, LINK_NOT_FOUND], // the same answer for every bad or missing link
  },
  'POST /api/ambulances/:id/position': {
    // Staff post for another ambulance than the driver link's: the crew's own reports take precedence over staff posts (409).
    who: 'staff+driver', url: (p) => `/api/ambulances/${p === 'operator' || p === 'admin' ? 5 : 6}/position`, body: (n) => ({ latitude: 17.4, longitude: 78.5 + n / 1000 }), ok: 200,
    refused: crewRefusal,
  },
  'POST /api/ambulances/:id/unit-status': {
    // Each admitted caller moves an assignment of its own one step forward (the driver's socket took ambulance 6 en route already).
    who: 'staff+driver', url: (p) => `/api/ambulances/${p === 'operator' ? 1 : p === 'admin' ? 3 : 6}/unit-status`,
    body: (_n, p) => ({ status: p === 'driver' ? 'on_scene' : 'en_route' }), ok: 200,
    refused: crewRefusal,
  },

  'POST /api/ambulances/:id/backup': {
    // Each admitted caller asks for backup for a unit on a call (the driver for its own ambulance 6).
    who: 'staff+driver', url: (p) => `/api/ambulances/${p === 'operator' ? 1 : p === 'admin' ? 3 : 6}/backup`,
    body: (n) => ({ note: `need hands ${n}` }), ok: 200,
    refused: crewRefusal,
  },

  'POST /api/auth/signout': { who: 'staff', ok: 200 },
  'GET /api/auth/profile': { who: 'staff', ok: 200 },
  'GET /api/cases': { who: 'staff', ok: 200 },
  'GET /api/cases/:id': { who: 'staff', url: () => `/api/cases/${f.caseId}`, ok: 200 },
  'POST /api/cases': { who: 'staff', body: () => caseBody(), ok: 201 },
  'PUT /api/cases/:id': { who: 'staff', url: () => `/api/cases/${f.caseId}`, body: (n) => ({ description: `Patient: Asha Rao, Type: Stroke, note ${n}` }), ok: 200 },
  'POST /live-location': { who: 'staff', body: () => caseBody(), ok: 201 },
  'POST /api/tracking/initiate': { who: 'staff', body: () => ({ caseId: f.caseId, ambulanceId: 1, patientEmail: 'patient@example.com', driverEmail: 'driver1@lifeline.test' }), ok: 200 },
  'GET /api/ambulances': { who: 'staff', ok: 200 },
  'GET /api/ambulances/:id/trail': { who: 'staff', url: () => '/api/ambulances/1/trail', ok: 200 },
  'PUT /api/ambulances/:id': { who: 'staff', url: () => '/api/ambulances/5', body: (n) => ({ status: n % 2 ? 'maintenance' : 'available' }), ok: 200 },
  'GET /api/geocode/reverse': { who: 'staff', url: () => '/api/geocode/reverse?lat=17.385&lon=78.4867', ok: 200 },
  'GET /api/dispatch/suggestions': { who: 'staff', url: () => '/api/dispatch/suggestions?latitude=17.385&longitude=78.4867', ok: 200 },
  'GET /api/geocode/search': { who: 'staff', url: () => '/api/geocode/search?q=17.385%2C%2078.4867', ok: 200 },
  'GET /api/reports/response-times': { who: 'staff', url: () => '/api/reports/response-times?from=2026-10-01&to=2026-10-03&tz=Asia/Kolkata', ok: 200 },
  'GET /api/reports/utilisation': { who: 'staff', url: () => '/api/reports/utilisation?from=2026-10-01&to=2026-10-03', ok: 200 },
  'GET /api/reports/demand': { who: 'staff', url: () => '/api/reports/demand?tz=Europe/London', ok: 200 },
  'GET /api/reports/handover': { who: 'staff', url: () => '/api/reports/handover?from=2026-10-01&to=2026-10-03&tz=Asia/Kolkata', ok: 200 },
  'GET /api/users/by-email': { who: 'staff', url: () => '/api/users/by-email?email=admin%40lifeline.test', ok: 200 },

  'GET /api/users/operators': { who: 'admin', ok: 200 },
  'POST /api/users': { who: 'admin', body: (n) => operatorBody(`new${n}`), ok: 201 },
  'PUT /api/users/:id': { who: 'admin', url: () => `/api/users/${f.keptOperatorId}`, body: () => operatorBody('kept'), ok: 200 },
  'DELETE /api/users/:id': { who: 'admin', url: () => `/api/users/${f.spareOperatorId}`, ok: 200 },
  'POST /api/users/:id/signout': { who: 'admin', url: () => `/api/users/${f.keptOperatorId}/signout`, ok: 200 },
  'GET /api/users/:id/signin-limits': { who: 'admin', url: () => `/api/users/${f.keptOperatorId}/signin-limits`, ok: 200 },
  'DELETE /api/users/:id/signin-limits': { who: 'admin', url: () => `/api/users/${f.keptOperatorId}/signin-limits`, ok: 200 },
  'POST /api/ambulances': { who: 'admin', body: (n) => ({ license_plate: `TS09 ZZ ${9000 + n}`, status: 'available' }), ok: 201 },
  'DELETE /api/ambulances/:id': { who: 'admin', url: () => '/api/ambulances/8', ok: 200 },
  'POST /api/ambulances/:id/device': { who: 'admin', url: () => '/api/ambulances/7/device', ok: 200 },
  'DELETE /api/cases/:id': { who: 'admin', url: () => `/api/cases/${f.spareCaseId}`, ok: 200 },
  'GET /api/outbox': { who: 'admin', ok: 200 },
  'GET /api/metrics': { who: 'admin', ok: 200 },
  'GET /api/reports/assignments.csv': { who: 'staff', ok: 200 },
  'POST /api/cases/:id/assignments/:assignmentId/corrections': {
    // A dispatch time a little earlier on each call: every admitted call writes, so a missing refusal would show.
    who: 'staff', url: () => `/api/cases/${f.lateCaseId}/assignments/${f.lateAssignmentId}/corrections`,
    body: (n) => ({ step: 'dispatched', at: new Date(Date.now() - 60_000 - n * 1000).toISOString(), reason: `typed late, call ${n}` }), ok: 200,
  },
  'GET /api/cases/:id/timeline': { who: 'admin', url: () => `/api/cases/${f.caseId}/timeline`, ok: 200 },
  'POST /api/cases/:id/assignments': {
    // Each admitted role adds its own free unit to its own active call: a missing refusal would write.
    who: 'staff', url: (p) => `/api/cases/${p === 'admin' ? f.unitCall.admin : f.unitCall.operator}/assignments`,
    body: (_n, p) => ({ ambulance_id: p === 'admin' ? f.extraUnit.admin : f.extraUnit.operator }), ok: 201,
  },
  'POST /api/cases/:id/assignments/:assignmentId/cancel': {
    who: 'staff', url: (p) => { const t = p === 'admin' ? f.standDown.admin : f.standDown.operator; return `/api/cases/${t.caseId}/assignments/${t.assignmentId}/cancel`; },
    body: () => ({ reason: 'not needed' }), ok: 200,
  },
  'POST /api/cases/:id/dispatch': {
    // Each admitted role dispatches its own waiting call with its own free unit: a missing refusal would write.
    who: 'staff', url: (p) => `/api/cases/${p === 'admin' ? f.queued.admin : f.queued.operator}/dispatch`,
    body: (_n, p) => ({ ambulance_id: p === 'admin' ? f.queueUnit.admin : f.queueUnit.operator }), ok: 200,
  },

  // Hospitals (issue 30): staff read them, admins manage them; the crew (staff or its driver link) sets a destination and sends a pre-alert.
  'GET /api/hospitals': { who: 'staff', ok: 200 },
  'GET /api/hospitals/suggestions': { who: 'staff+driver', url: () => '/api/hospitals/suggestions?latitude=17.385&longitude=78.4867&needs=stroke', ok: 200, refused: crewRefusal },
  'POST /api/hospitals': { who: 'admin', body: (n) => ({ name: `Role Test Hospital ${n}`, latitude: 17.4, longitude: 78.5 + n / 1000, capabilities: ['stroke'] }), ok: 201 },
  'PUT /api/hospitals/:id': { who: 'admin', url: () => `/api/hospitals/${f.relinkHospitalId}`, body: (n) => ({ name: `Role Test Renamed ${n}` }), ok: 200 },
  'DELETE /api/hospitals/:id': { who: 'admin', url: () => `/api/hospitals/${f.spareHospitalId}`, ok: 200 },
  'POST /api/hospitals/:id/link': { who: 'admin', url: () => `/api/hospitals/${f.relinkHospitalId}/link`, ok: 200 },
  'POST /api/cases/:id/assignments/:assignmentId/destination': {
    // Ambulance 6's own call (the driver link's): staff may set it too; each admitted call writes (a new set_at).
    who: 'staff+driver', url: () => `/api/cases/${f.linkCaseId}/assignments/${f.linkAssignmentId}/destination`,
    body: (n) => ({ hospital_id: f.hospitalId, reason: n % 2 ? 'closest' : 'specialty' }), ok: 200, refused: crewRefusal,
  },
  'POST /api/cases/:id/assignments/:assignmentId/prealert': {
    who: 'staff+driver', url: () => `/api/cases/${f.linkCaseId}/assignments/${f.linkAssignmentId}/prealert`,
    body: (n) => ({ age: 60 + n, sex: 'female', activation: 'stroke', mechanism: 'collapsed' }), ok: 201, refused: crewRefusal,
  },
  // A hospital's own page (`?t=` its link): every other caller gets the bad link's 404.
  'GET /api/hospital/:id': { who: 'hospital', url: () => `/api/hospital/${f.hospitalId}`, ok: 200, refused: hospitalRefusal },
  'PUT /api/hospital/:id/status': {
    who: 'hospital', url: () => `/api/hospital/${f.hospitalId}/status`, body: () => ({ status: 'diversion', status_reason: 'role test: ED full' }), ok: 200, refused: hospitalRefusal,
  },
  'POST /api/hospital/:id/prealerts/:prealertId/ack': { who: 'hospital', url: () => `/api/hospital/${f.hospitalId}/prealerts/${f.prealertId}/ack`, ok: 200, refused: hospitalRefusal },
  'POST /api/hospital/:id/handover/:assignmentId': { who: 'hospital', url: () => `/api/hospital/${f.hospitalId}/handover/${f.handoverAssignmentId}`, ok: 200, refused: hospitalRefusal },
};

/** Socket events, with what docs/api.md says about them. */
const SOCKET_WHO: Record<string, Who> = {
  'socket:connect': 'staff+driver', // and viewers and hospital pages: checked below with the table
  'socket:ambulance.position': 'viewer+driver', // narrowed to driver below
  'socket:unit.status': 'viewer+driver', // narrowed to driver below
  'socket:unit.backup': 'viewer+driver', // narrowed to driver below
};

const table = access as Record<string, AccessRule>;
const restKeys = Object.keys(table).filter((k) => !k.startsWith('socket:'));
const socketKeys = Object.keys(table).filter((k) => k.startsWith('socket:'));

/**
 * How a principal presents itself: link holders put their token in `?t=` (as the links do),
 * and are also tried with it as a bearer token; staff send their session as a bearer token.
 */
type Via = 'none' | 'query' | 'bearer';
const isLink = (p: Principal) => p === 'viewer' || p === 'driver' || p === 'hospital';
const viasOf = (p: Principal): Via[] => (p === 'anonymous' ? ['none'] : isLink(p) ? ['query', 'bearer'] : ['bearer']);

/** The default refusal of a route whose entry names a staff permission. */
function defaultRefusal(key: string, p: Principal, via: Via): [number, string] {
  const rule = table[key];
  if ((p === 'operator' || p === 'admin') && rule.permission) return [403, permissions[rule.permission].denied];
  return [401, via === 'bearer' ? BAD_TOKEN : NO_TOKEN];
}

async function credentials(p: Principal): Promise<string | undefined> {
  if (p === 'operator' || p === 'admin') return s.signIn(p);
  if (p === 'viewer') return f.viewer;
  if (p === 'driver') return f.driver;
  if (p === 'hospital') return f.hospital;
  return undefined;
}

const calls: Record<string, number> = {};
/** Evaluated inside each test, once the fixtures exist. */
async function call(key: string, p: Principal, via: Via) {
  const [method, path] = key.split(' ');
  const e = MATRIX[key];
  const n = (calls[key] = (calls[key] ?? 0) + 1);
  const secret = await credentials(p);
  let url = e.url?.(p) ?? path;
  // A route whose URL carries its own link token (the patient's location link) admits anyone holding that link: no second `t`.
  if (via === 'query' && !/[?&]t=/.test(url)) url += `${url.includes('?') ? '&' : '?'}t=${encodeURIComponent(secret!)}`;
  const headers = e.headers?.();
  return { send: () => s.api(method, url, { token: via === 'bearer' && !headers?.authorization ? secret : undefined, body: e.body?.(n, p), headers }) };
}

beforeAll(async () => {
  const admin = await s.signIn('admin');
  const post = async (path: string, body: unknown) => {
    const res = await s.api('POST', path, { token: admin, body });
    expect({ path, status: res.status }).toEqual({ path, status: 201 });
    return res.body;
  };
  f.caseId = (await post('/live-location', { ...caseBody(), license_plate: 1 })).caseId;
  f.spareCaseId = (await post('/api/cases', caseBody())).case.id;
  f.keptOperatorId = (await post('/api/users', operatorBody('kept'))).user.id;
  f.spareOperatorId = (await post('/api/users', operatorBody('spare'))).user.id;
  f.linkCaseId = await dispatchCase(s, admin, 6);
  ({ viewer: f.viewer, driver: f.driver } = await trackingTokens(s, admin, f.linkCaseId, 6));
  f.locationToken = await locationToken(s, f.linkCaseId);
  const device = await s.api('POST', '/api/ambulances/2/device', { token: admin });
  expect(device.status).toBe(200);
  f.device = device.body.device_id;
  f.unitCaseId = await dispatchCase(s, admin, 3);
  // Ambulance 4 joined the fleet before the late call came in (the seed adds it at the server's start): its dispatch may move back.
  await s.ctx.db('ambulances').where({ id: 4 }).update({ created_at: new Date(Date.now() - 86_400_000).toISOString() });
  const late = await post('/api/cases', { ...caseBody(), ambulance_id: 4, call_received_at: new Date(Date.now() - 10 * 60_000).toISOString() });
  f.lateCaseId = late.case.id;
  f.lateAssignmentId = late.case.assignment.id;
  // Hospitals: one with a page link, ambulance 6 conveying there with a pre-alert, a unit arrived there; one to relink, one to delete.
  const hospital = async (name: string) => (await post('/api/hospitals', { name, latitude: 17.41, longitude: 78.45, capabilities: ['stroke'] })).hospital.id as number;
  f.hospitalId = await hospital('Role Test General');
  f.relinkHospitalId = await hospital('Role Test Relinked');
  f.spareHospitalId = await hospital('Role Test Spare');
  const link = await s.api('POST', `/api/hospitals/${f.hospitalId}/link`, { token: admin });
  expect(link.status).toBe(200);
  f.hospital = new URL(link.body.link).searchParams.get('t')!;
  f.linkAssignmentId = (await s.ctx.db('assignments').where({ case_id: f.linkCaseId, ambulance_id: 6 }).first()).id;
  const conveyTo = async (caseId: string, assignmentId: number) =>
    expect((await s.api('POST', `/api/cases/${caseId}/assignments/${assignmentId}/destination`, { token: admin, body: { hospital_id: f.hospitalId, reason: 'closest' } })).status).toBe(200);
  await conveyTo(f.linkCaseId, f.linkAssignmentId);
  f.prealertId = (await post(`/api/cases/${f.linkCaseId}/assignments/${f.linkAssignmentId}/prealert`, { age: 70, activation: 'stroke' })).prealert.id;
  const arriving = (await post('/api/ambulances', { license_plate: 'TS09 HO 0001', status: 'available' })).ambulance.id as number;
  const handoverCase = (await post('/api/cases', { ...caseBody(), ambulance_id: arriving })).case;
  f.handoverAssignmentId = handoverCase.assignment.id;
  await conveyTo(handoverCase.id, f.handoverAssignmentId);
  expect((await s.api('POST', `/api/ambulances/${arriving}/unit-status`, { token: admin, body: { status: 'at_hospital' } })).status).toBe(200);
  for (const role of ['operator', 'admin'] as const) {
    f.queued[role] = (await post('/api/cases', { ...caseBody(), status: 'pending' })).case.id;
    f.queueUnit[role] = (await post('/api/ambulances', { license_plate: `TS09 QU ${role === 'admin' ? 2 : 1}`, status: 'available' })).ambulance.id;
    const unit = async (tag: string) => (await post('/api/ambulances', { license_plate: `TS09 UN ${tag}`, status: 'available' })).ambulance.id as number;
    f.unitCall[role] = (await post('/api/cases', { ...caseBody(), ambulance_id: await unit(`${role}1`) })).case.id;
    f.extraUnit[role] = await unit(`${role}2`);
    const call = (await post('/api/cases', { ...caseBody(), ambulance_id: await unit(`${role}3`) })).case.id as string;
    f.standDown[role] = { caseId: call, assignmentId: (await post(`/api/cases/${call}/assignments`, { ambulance_id: await unit(`${role}4`) })).assignment.id };
  }
});

describe('the table covers every route and socket event', () => {
  it('has an entry for every method and path the router serves, and none it does not serve', () => {
    const { router } = createApp(s.ctx);
    const served = new Set<string>();
    for (const layer of router.stack) {
      for (const method of layer.methods) if (method !== 'HEAD') served.add(`${method} ${layer.path}`);
    }
    expect([...served].sort()).toEqual([...restKeys].sort());
    expect(Object.keys(MATRIX).sort()).toEqual([...restKeys].sort());
  });

  it('has an entry for every event a client may send on any kind of socket, plus the handshake', async () => {
    const admin = await s.signIn('admin');
    const sockets = [await s.socket({ token: admin }), await s.socket({ trackToken: f.viewer }), await s.socket({ driverToken: f.driver }),
      await s.socket({ hospitalId: f.hospitalId, hospitalToken: f.hospital })];
    try {
      const reserved = new Set(['connect', 'connect_error', 'disconnect', 'disconnecting', 'error', 'newListener', 'removeListener']);
      const handled = new Set<string>();
      for (const server of s.io.of('/').sockets.values()) {
        for (const name of server.eventNames()) if (typeof name === 'string' && !reserved.has(name)) handled.add(`socket:${name}`);
      }
      expect(['socket:connect', ...handled].sort()).toEqual([...socketKeys].sort());
    } finally {
      for (const sock of sockets) sock.disconnect();
    }
  });

  it('agrees with docs/api.md about who may call each route', () => {
    for (const key of restKeys) expect({ key, principals: principalsOf(table[key]) }).toEqual({ key, principals: WHO[MATRIX[key].who] });
    expect(principalsOf(table['socket:connect'])).toEqual(['viewer', 'driver', 'hospital', 'operator', 'admin']);
    expect(principalsOf(table['socket:ambulance.position'])).toEqual(['driver']);
    expect(principalsOf(table['socket:unit.status'])).toEqual(['driver']);
    expect(principalsOf(table['socket:unit.backup'])).toEqual(['driver']);
    expect(Object.keys(SOCKET_WHO).sort()).toEqual([...socketKeys].sort());
  });

  it('names only real permissions, and `anyone` entries need nothing else', () => {
    for (const [key, rule] of Object.entries(table)) {
      if (rule.permission) expect({ key, known: rule.permission in permissions }).toEqual({ key, known: true });
      if (rule.anyone) expect({ key, rule }).toEqual({ key, rule: { anyone: true } });
      expect({ key, empty: principalsOf(rule).length === 0 }).toEqual({ key, empty: false });
    }
  });

  it('refuses an undeclared route: mayCall is false for every principal, and the router answers 403 before its handler runs', async () => {
    for (const p of PRINCIPALS) expect(mayCall('GET /api/not-declared', p)).toBe(false);
    const { app, router } = createApp(s.ctx);
    let ran = false;
    router.get('/api/not-declared', (ctx) => { ran = true; ctx.body = { ok: true }; });
    const server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = server.address() as AddressInfo;
      const admin = await s.signIn('admin');
      const res = await fetch(`http://127.0.0.1:${port}/api/not-declared`, { headers: { authorization: `Bearer ${admin}` } });
      expect({ status: res.status, body: await res.json(), ran }).toEqual({ status: 403, body: { error: 'No access rule is declared for this route' }, ran: false });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/** Every (route, principal, way of presenting itself) the table refuses. */
const refusals = restKeys.flatMap((key) =>
  PRINCIPALS.flatMap((p) => viasOf(p)
    .filter((via) => !mayCall(key, p) || (via === 'bearer' && isLink(p) && !table[key].anyone))
    .map((via) => [key, p, via] as [string, Principal, Via])));

describe('refused callers change nothing', () => {
  it.each(refusals)('%s as %s (%s): refused with the documented status and text', async (key, p, via) => {
    const { send } = await call(key, p, via);
    const res = await expectNoWrite(s.ctx.db, send);
    const [status, error] = MATRIX[key].refused?.(p, via) ?? defaultRefusal(key, p, via);
    expectError(res, status, error);
  });

  it('401 once the session is signed out', async () => {
    const token = await s.signIn('operator');
    expect((await s.api('POST', '/api/auth/signout', { token })).status).toBe(200);
    expectError(await expectNoWrite(s.ctx.db, () => s.api('GET', '/api/cases', { token })), 401, BAD_TOKEN);
  });
});

describe('what an operator may change on an ambulance', () => {
  const ONLY_STATUS = "Only admins can change an ambulance's license plate, driver email or capability";
  it.each([
    ['a license plate', { license_plate: 'TS09 XX 0001' }],
    ['a license plate with the status', { status: 'available', license_plate: 'TS09 XX 0001' }],
    ['a driver e-mail', { email: 'someone@lifeline.test' }],
  ])('403 for %s, and nothing changes', async (_what, body) => {
    const token = await s.signIn('operator');
    const res = await expectNoWrite(s.ctx.db, () => s.api('PUT', '/api/ambulances/2', { token, body }));
    expectError(res, 403, ONLY_STATUS);
  });

  // The operator's form sends the whole row back: unchanged plate and e-mail are not a change.
  it('200 for a status change that repeats the unchanged plate and e-mail', async () => {
    const token = await s.signIn('operator');
    const res = await s.api('PUT', '/api/ambulances/2', { token, body: { status: 'maintenance', license_plate: 'TS09 EA 1002', email: 'driver2@lifeline.test' } });
    expect(res).toMatchObject({ status: 200, body: { ambulance: { id: 2, status: 'maintenance', license_plate: 'TS09 EA 1002' } } });
    expect((await s.api('PUT', '/api/ambulances/2', { token, body: { status: 'available' } })).status).toBe(200);
  });

  it('200 for {status} alone, which is stored', async () => {
    const token = await s.signIn('operator');
    const res = await s.api('PUT', '/api/ambulances/2', { token, body: { status: 'maintenance' } });
    expect(res).toMatchObject({ status: 200, body: { ambulance: { id: 2, status: 'maintenance', license_plate: 'TS09 EA 1002' } } });
    expect(await s.ctx.db('ambulances').where({ id: 2 }).first()).toMatchObject({ status: 'maintenance', license_plate: 'TS09 EA 1002' });
    expect((await s.api('PUT', '/api/ambulances/2', { token, body: { status: 'available' } })).status).toBe(200);
  });
});

describe('socket events', () => {
  const open: Socket<any, any>[] = [];
  afterAll(() => { for (const sock of open) sock.disconnect(); });

  const authOf = async (p: Principal): Promise<Record<string, unknown>> =>
    p === 'viewer' ? { trackToken: f.viewer } : p === 'driver' ? { driverToken: f.driver } : p === 'hospital' ? { hospitalId: f.hospitalId, hospitalToken: f.hospital }
      : p === 'anonymous' ? {} : { token: await s.signIn(p) };

  async function connectAs(p: Principal) {
    const sock = await s.socket(await authOf(p));
    open.push(sock);
    return sock;
  }

  it.each(PRINCIPALS.map((p) => [p]))('socket:connect as %s: as the table says, and a refusal changes nothing', async (p) => {
    const auth = await authOf(p);
    if (mayCall('socket:connect', p)) {
      const sock = await s.socket(auth);
      open.push(sock);
      expect(sock.connected).toBe(true);
    } else {
      const err = await expectNoWrite(s.ctx.db, () => s.socket(auth).then(() => undefined, (e: Error) => e));
      expect(err?.message).toBe('unauthorized');
    }
  });

  it('socket:connect refuses a link token offered in the wrong slot or as a staff token', async () => {
    for (const auth of [{ token: f.viewer }, { token: f.driver }, { driverToken: f.viewer }, { trackToken: 'x'.repeat(43) }, { token: f.hospital }, { driverToken: f.hospital },
      { hospitalId: f.hospitalId, hospitalToken: f.driver }, { hospitalId: f.spareHospitalId, hospitalToken: f.hospital }, { hospitalToken: f.hospital }]) {
      const err = await expectNoWrite(s.ctx.db, () => s.socket(auth).then(() => undefined, (e: Error) => e));
      expect({ auth: Object.keys(auth), message: err?.message }).toEqual({ auth: Object.keys(auth), message: 'unauthorized' });
    }
  });

  it.each(PRINCIPALS.filter((p) => mayCall('socket:connect', p)).map((p) => [p]))(
    'socket:ambulance.position as %s: acknowledged as the table says, and a refusal changes nothing',
    async (p) => {
      const sock = await connectAs(p);
      const send = () => sock.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.41, longitude: 78.49 });
      if (mayCall('socket:ambulance.position', p)) {
        expect(await send()).toMatchObject({ ok: true });
      } else {
        expect(await expectNoWrite(s.ctx.db, send)).toEqual({ ok: false, error: ONLY_DRIVER });
      }
    },
  );

  it.each(PRINCIPALS.filter((p) => mayCall('socket:connect', p)).map((p) => [p]))(
    'socket:unit.status as %s: acknowledged as the table says, and a refusal changes nothing',
    async (p) => {
      const sock = await connectAs(p);
      const send = () => sock.timeout(2000).emitWithAck('unit.status', { status: 'en_route' });
      if (mayCall('socket:unit.status', p)) {
        expect(await send()).toMatchObject({ ok: true, assignment: { ambulance_id: 6, status: 'en_route' } });
      } else {
        expect(await expectNoWrite(s.ctx.db, send)).toEqual({ ok: false, error: "Only a driver link may change its unit's status" });
      }
    },
  );

  it.each(PRINCIPALS.filter((p) => mayCall('socket:connect', p)).map((p) => [p]))(
    'socket:unit.backup as %s: acknowledged as the table says, and a refusal changes nothing',
    async (p) => {
      const sock = await connectAs(p);
      const send = () => sock.timeout(2000).emitWithAck('unit.backup', { note: 'second patient' });
      if (mayCall('socket:unit.backup', p)) {
        expect(await send()).toMatchObject({ ok: true, alert: { ambulance_id: 6, case_id: f.linkCaseId, note: 'second patient' } });
      } else {
        expect(await expectNoWrite(s.ctx.db, send)).toEqual({ ok: false, error: 'Only a driver link may ask for backup' });
      }
    },
  );

  it('an event no entry declares is ignored: no answer and no write', async () => {
    const sock = await connectAs('admin');
    const res = await expectNoWrite(s.ctx.db, () => sock.timeout(300).emitWithAck('case.deleted' as any, { id: f.caseId }).then(() => 'answered', () => 'ignored'));
    expect(res).toBe('ignored');
    expect(await s.ctx.db('cases').where({ id: f.caseId }).first()).toBeDefined();
  });
});

/** Every (route, principal) the table admits, each presenting itself the usual way. */
const admitted = restKeys.flatMap((key) => PRINCIPALS.filter((p) => mayCall(key, p)).map((p) => [key, p] as [string, Principal]));

// Last: these calls succeed and change the data the refusals above were checked against.
describe('admitted callers get through', () => {
  it.each(admitted)('%s as %s: the success status', async (key, p) => {
    const { send } = await call(key, p, viasOf(p)[0]);
    const res = await send();
    expect({ key, p, status: res.status, body: res.status === MATRIX[key].ok ? 'ok' : res.body }).toEqual({ key, p, status: MATRIX[key].ok, body: 'ok' });
  });
});
