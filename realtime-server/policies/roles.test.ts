import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../http/app';
import { expectError, expectNoWrite } from '../testing/assertions';
import { startTestServer, type TestServer } from '../testing/testServer';
import { type Permission, permissions } from './permissions';

/**
 * The server's role matrix (SPEC.md §6, issue 2): which routes need no sign-in, which any
 * staff member may call, which only admins. Every route the router knows must be listed
 * here, so a new route cannot ship without a decision.
 */
const NO_TOKEN = 'Authentication required';
const BAD_TOKEN = 'Your session has expired or was revoked; please sign in again';

let s: TestServer;
/** Rows the requests below point at, made in beforeAll. */
const f = {
  caseId: '', // active, ambulance 1: tracking, timeline, update
  spareCaseId: '', // active, no ambulance: deleted by the admin
  keptOperatorId: 0, // edited by the admin
  spareOperatorId: 0, // deleted by the admin
};

interface Entry {
  /** Who may call it: anyone, any signed-in staff member, or admins only. */
  access: 'public' | 'staff' | 'admin';
  /** The permission whose refusal text an operator gets (admin routes). */
  permission?: Permission;
  /**
   * The request every test sends: the path with fixture ids and a valid body, so that a
   * missing refusal would show up as a write; `ok` is what a permitted caller gets.
   */
  url?: () => string;
  body?: () => unknown;
  ok?: number;
}

const caseBody = (ambulance?: number) => ({ to: 'patient@example.com', status: 'active', patientName: 'Asha Rao', description: 'Patient: Asha Rao, Type: Stroke', ambulance_id: ambulance });
const operatorBody = (n: string) => ({ name: `Role Test ${n}`, email: `role.${n}@lifeline.test`, role: 'operator', shift: 1, gender: 0, phone: '555 0300' });

const MATRIX: Record<string, Entry> = {
  'GET /api/health': { access: 'public' },
  'GET /api/config': { access: 'public' },
  'POST /api/auth/signin': { access: 'public' },
  'POST /api/location/:caseId': { access: 'public' }, // the patient's share link
  'GET /api/track/:ambulanceId': { access: 'public' }, // holds a viewer token instead

  'POST /api/auth/signout': { access: 'staff', ok: 200 },
  'GET /api/auth/profile': { access: 'staff', ok: 200 },
  'GET /api/cases': { access: 'staff', ok: 200 },
  'GET /api/cases/:id': { access: 'staff', url: () => `/api/cases/${f.caseId}`, ok: 200 },
  'POST /api/cases': { access: 'staff', body: () => caseBody(4), ok: 201 },
  'PUT /api/cases/:id': { access: 'staff', url: () => `/api/cases/${f.caseId}`, body: () => ({ description: 'Patient: Asha Rao, Type: Stroke, conscious' }), ok: 200 },
  'POST /live-location': { access: 'staff', body: () => ({ ...caseBody(), license_plate: 3 }), ok: 201 },
  'POST /api/tracking/initiate': { access: 'staff', body: () => ({ caseId: f.caseId, ambulanceId: 1, patientEmail: 'patient@example.com', driverEmail: 'driver1@lifeline.test' }), ok: 200 },
  'GET /api/ambulances': { access: 'staff', ok: 200 },
  'GET /api/ambulances/:id/trail': { access: 'staff', url: () => '/api/ambulances/1/trail', ok: 200 },
  'PUT /api/ambulances/:id': { access: 'staff', url: () => '/api/ambulances/5', body: () => ({ status: 'maintenance' }), ok: 200 },
  // Staff, or the holder of that ambulance's driver link (`?t=`, tested with the tracking links).
  'POST /api/ambulances/:id/position': { access: 'staff', url: () => '/api/ambulances/6/position', body: () => ({ latitude: 17.4, longitude: 78.5 }), ok: 200 },
  'GET /api/geocode/reverse': { access: 'staff', url: () => '/api/geocode/reverse?lat=17.385&lon=78.4867', ok: 200 },
  'GET /api/users/by-email': { access: 'staff', url: () => '/api/users/by-email?email=admin%40lifeline.test', ok: 200 },

  'GET /api/users/operators': { access: 'admin', permission: 'user.list', ok: 200 },
  'POST /api/users': { access: 'admin', permission: 'user.create', body: () => operatorBody('new'), ok: 201 },
  'PUT /api/users/:id': { access: 'admin', permission: 'user.update', url: () => `/api/users/${f.keptOperatorId}`, body: () => operatorBody('kept'), ok: 200 },
  'DELETE /api/users/:id': { access: 'admin', permission: 'user.delete', url: () => `/api/users/${f.spareOperatorId}`, ok: 200 },
  'POST /api/ambulances': { access: 'admin', permission: 'ambulance.create', body: () => ({ license_plate: 'TS09 ZZ 9999', status: 'available' }), ok: 201 },
  'DELETE /api/ambulances/:id': { access: 'admin', permission: 'ambulance.delete', url: () => '/api/ambulances/8', ok: 200 },
  'DELETE /api/cases/:id': { access: 'admin', permission: 'case.delete', url: () => `/api/cases/${f.spareCaseId}`, ok: 200 },
  'GET /api/outbox': { access: 'admin', permission: 'outbox.read', ok: 200 },
  'GET /api/cases/:id/timeline': { access: 'admin', permission: 'case.timeline', url: () => `/api/cases/${f.caseId}/timeline`, ok: 200 },
};

const keys = (access: Entry['access']) => Object.keys(MATRIX).filter((key) => MATRIX[key].access === access);

/** Evaluated inside each test, once the fixtures exist. */
const call = (key: string, token?: string) => {
  const [method, path] = key.split(' ');
  const e = MATRIX[key];
  return s.api(method, e.url?.() ?? path, { token, body: e.body?.() });
};

beforeAll(async () => {
  s = await startTestServer();
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
});
afterAll(() => s?.dispose());

describe('the matrix covers every route', () => {
  it('lists every method and path the router serves, and nothing it does not', () => {
    const { router } = createApp(s.ctx);
    const served = new Set<string>();
    for (const layer of router.stack) {
      for (const method of layer.methods) if (method !== 'HEAD') served.add(`${method} ${layer.path}`);
    }
    expect([...served].sort()).toEqual(Object.keys(MATRIX).sort());
  });

  it('names a real permission with an admin-only role set for every admin route', () => {
    for (const key of keys('admin')) {
      const { permission } = MATRIX[key];
      expect({ key, roles: permission && permissions[permission].roles }).toEqual({ key, roles: ['admin'] });
    }
  });
});

describe('admin-only routes', () => {
  it.each(keys('admin'))('%s: 403 for an operator, and nothing changes', async (key) => {
    const token = await s.signIn('operator');
    const res = await expectNoWrite(s.ctx.db, () => call(key, token));
    expectError(res, 403, permissions[MATRIX[key].permission!].denied);
  });
});

describe('staff and admin routes without a live session', () => {
  it.each([...keys('staff'), ...keys('admin')])('%s: 401 with no token, or with a token that is not a session, and nothing changes', async (key) => {
    expectError(await expectNoWrite(s.ctx.db, () => call(key)), 401, NO_TOKEN);
    expectError(await expectNoWrite(s.ctx.db, () => call(key, 'not-a-session-token')), 401, BAD_TOKEN);
  });

  it('401 once the session is signed out', async () => {
    const token = await s.signIn('operator');
    expect((await s.api('POST', '/api/auth/signout', { token })).status).toBe(200);
    expectError(await expectNoWrite(s.ctx.db, () => call('GET /api/cases', token)), 401, BAD_TOKEN);
  });
});

describe('what an operator may change on an ambulance', () => {
  const ONLY_STATUS = "Only admins can change an ambulance's license plate or driver email";
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

// Last: these calls succeed and change the data the refusals above were checked against.
describe('permitted callers get through', () => {
  it.each(keys('staff'))('%s: an operator gets the success status', async (key) => {
    const res = await call(key, await s.signIn('operator'));
    expect({ key, status: res.status, body: res.status === MATRIX[key].ok ? 'ok' : res.body }).toEqual({ key, status: MATRIX[key].ok, body: 'ok' });
  });

  it.each(keys('admin'))('%s: an admin gets the success status', async (key) => {
    const res = await call(key, await s.signIn('admin'));
    expect({ key, status: res.status, body: res.status === MATRIX[key].ok ? 'ok' : res.body }).toEqual({ key, status: MATRIX[key].ok, body: 'ok' });
  });

  it.each(keys('public'))('%s: answers without a token and never 401 or 403', async (key) => {
    const res = await call(key);
    expect([401, 403]).not.toContain(res.status);
  });
});
