import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { useTestServer } from '../../testing/testServer';
import { DEMO } from '../../testing/demoAccounts';

const NOT_FOUND = 'Operator not found';
const ONLY_OPERATORS = 'Only operator accounts can be managed here';
const DUPLICATE = 'An account with this email already exists';

const s = useTestServer();
let admin: string;
let operator: string;
let adminId: number;
let operatorId: number;

beforeAll(async () => {
  admin = await s.signIn('admin');
  operator = await s.signIn('operator');
  adminId = (await s.ctx.db('users').where({ role: 'admin' }).first()).id;
  operatorId = (await s.ctx.db('users').where({ email: DEMO.operator.email }).first()).id;
});

let serial = 0;
/** A valid operator form body with a fresh e-mail. */
const form = (over: Record<string, unknown> = {}) => ({
  name: `Dispatcher ${++serial}`,
  email: `dispatcher${serial}@lifeline.test`,
  role: 'operator',
  address: '12 Tank Bund Road',
  shift: 2,
  gender: 1,
  location: 'Dispatch Desk 2',
  phone: '+91 555 0190',
  ...over,
});
const createUser = async (over: Record<string, unknown> = {}) => {
  const res = await s.api('POST', '/api/users', { token: admin, body: form(over) });
  expect(res.status).toBe(201);
  return res.body.user as { id: number; name: string; email: string; phone: string };
};
const userRow = (id: number) => s.ctx.db('users').where({ id }).first();

describe('GET /api/users/operators', () => {
  it('lists the operators (and not the admin) as {operators}', async () => {
    const res = await s.api('GET', '/api/users/operators', { token: admin });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['operators']);
    const operators = res.body.operators as any[];
    const ids = (await s.ctx.db('users').where({ role: 'operator' }).orderBy('id').select('id')).map((r) => r.id);
    expect(operators.map((o) => o.id)).toEqual(ids);
    expect(operators.find((o) => o.id === adminId)).toBeUndefined();
    expect(operators.find((o) => o.id === operatorId)).toEqual({
      id: operatorId, name: 'Operator', email: 'operator@lifeline.test', phone: '5550101', address: null, role: 'operator',
      shift: 1, location: 'Dispatch Desk 1, Hyderabad', gender: 1, active: true,
      created_at: expect.any(String), updated_at: expect.any(String), version: 1,
    });
  });
});

describe('GET /api/users/by-email', () => {
  it.each([
    ['an operator', 'operator@lifeline.test', () => operatorId],
    ['the admin', 'admin@lifeline.test', () => adminId],
    ['an e-mail in another case', 'Operator@LIFELINE.test', () => operatorId],
  ])('answers {id} of %s, for an operator too', async (_who, email, id) => {
    const res = await s.api('GET', `/api/users/by-email?email=${encodeURIComponent(email)}`, { token: operator });
    expect(res).toMatchObject({ status: 200 });
    expect(res.body).toEqual({ id: id() });
  });

  it('answers 404 for an unknown e-mail', async () => {
    expectError(await s.api('GET', '/api/users/by-email?email=nobody%40lifeline.test', { token: operator }), 404, 'No staff account with this email');
  });

  it.each([
    ['a malformed e-mail', '?email=not-an-email', 'email: Invalid email address'],
    ['an empty e-mail', '?email=', 'email: Invalid email address'],
    ['no e-mail', '', 'email: required'],
  ])('answers 400 for %s', async (_what, query, error) => {
    expectError(await s.api('GET', `/api/users/by-email${query}`, { token: operator }), 400, error);
  });
});

describe('POST /api/users', () => {
  it('creates an operator: 201 {user}, shift and gender stored as numbers, e-mail lower-cased', async () => {
    const body = form({ email: '  New.Dispatcher@Lifeline.TEST ', shift: 3, gender: 2 });
    const res = await s.api('POST', '/api/users', { token: admin, body });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['user']);
    expect(res.body.user).toEqual({
      id: expect.any(Number), name: body.name, email: 'new.dispatcher@lifeline.test', phone: '+91 555 0190',
      address: '12 Tank Bund Road', role: 'operator', shift: 3, location: 'Dispatch Desk 2', gender: 2, active: true,
      created_at: expect.any(String), updated_at: expect.any(String), version: 1,
    });
    const row = await userRow(res.body.user.id);
    expect(row).toMatchObject({ email: 'new.dispatcher@lifeline.test', role: 'operator', shift: 3, gender: 2 });
    expect(typeof row.shift).toBe('number');
    expect(typeof row.gender).toBe('number');
  });

  it('creates an operator without role (operator is the only choice) and with the optional fields empty', async () => {
    const { role: _role, ...body } = form({ address: '', location: null, phone: undefined });
    const res = await s.api('POST', '/api/users', { token: admin, body });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ role: 'operator', address: null, location: null, phone: null });
  });

  it('lets the created operator sign in with name, e-mail and phone, and see the profile', async () => {
    const user = await createUser({ name: 'Ravi Kumar', phone: '+91 98480-22338' });
    const res = await s.api('POST', '/api/auth/signin', { body: { email: user.email.toUpperCase(), username: ' ravi kumar ', phone: '919848022338' } });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ id: user.id, email: user.email, role: 'operator', username: 'Ravi Kumar' });
    const me = await s.api('GET', '/api/auth/profile', { token: res.body.token });
    expect(me.body.user).toMatchObject({ id: user.id, name: 'Ravi Kumar', shift: 2, gender: 1 });
  });

  it.each([
    ['role admin', { role: 'admin' }, 'role: only operator accounts can be created'],
    ['a missing name', { name: undefined }, 'name: required'],
    ['a blank name', { name: '  ' }, 'name: required'],
    ['a missing e-mail', { email: undefined }, 'email: required'],
    ['a malformed e-mail', { email: 'dispatcher.lifeline.test' }, 'email: Invalid email address'],
    ['a missing shift', { shift: undefined }, 'shift: must be 1 (Morning), 2 (Evening) or 3 (Night)'],
    ['shift 4', { shift: 4 }, 'shift: must be 1 (Morning), 2 (Evening) or 3 (Night)'],
    ['shift as text', { shift: 'Morning' }, 'shift: must be 1 (Morning), 2 (Evening) or 3 (Night)'],
    ['a missing gender', { gender: null }, 'gender: must be 0 (Male), 1 (Female) or 2 (Other)'],
    ['gender 3', { gender: 3 }, 'gender: must be 0 (Male), 1 (Female) or 2 (Other)'],
  ])('answers 400 for %s and writes nothing', async (_what, over, error) => {
    const res = await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/users', { token: admin, body: form(over) }));
    expectError(res, 400, error);
  });

  it('answers 409 for an e-mail already in use, in any case, and writes nothing', async () => {
    for (const email of ['operator@lifeline.test', 'ADMIN@lifeline.test']) {
      const res = await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/users', { token: admin, body: form({ email }) }));
      expectError(res, 409, DUPLICATE);
    }
  });

  it('creates one account when the same e-mail is posted twice at once', async () => {
    const body = form();
    const results = await Promise.all([1, 2].map(() => s.api('POST', '/api/users', { token: admin, body })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await s.ctx.db('users').where({ email: body.email })).toHaveLength(1);
  });
});

describe('PUT /api/users/{id}', () => {
  it('updates an operator and answers {user}; the new name and phone sign in, the old ones no longer do', async () => {
    const user = await createUser({ phone: '555 0111' });
    const body = form({ name: 'Renamed Dispatcher', email: 'renamed@lifeline.test', shift: 1, gender: 0, phone: '555 0112', address: null });
    const res = await s.api('PUT', `/api/users/${user.id}`, { token: admin, body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: expect.objectContaining({ id: user.id, name: 'Renamed Dispatcher', email: 'renamed@lifeline.test', shift: 1, gender: 0, phone: '555 0112', address: null, version: 2 }),
    });
    expect(await userRow(user.id)).toMatchObject({ name: 'Renamed Dispatcher', email: 'renamed@lifeline.test', shift: 1, gender: 0, version: 2 });
    const signIn = (b: object) => s.api('POST', '/api/auth/signin', { body: b });
    expect((await signIn({ email: 'renamed@lifeline.test', username: 'renamed dispatcher', phone: '5550112' })).status).toBe(200);
    expect((await signIn({ email: user.email, username: user.name, phone: '5550111' })).status).toBe(401);
    expect((await signIn({ email: 'renamed@lifeline.test', username: user.name, phone: '5550112' })).status).toBe(401);
  });

  it('keeps its own e-mail without a conflict', async () => {
    const user = await createUser();
    const res = await s.api('PUT', `/api/users/${user.id}`, { token: admin, body: form({ email: user.email, name: 'Same Mail' }) });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: user.email, name: 'Same Mail' });
  });

  it("answers 403 for the admin's account and changes nothing", async () => {
    const res = await expectNoWrite(s.ctx.db, () => s.api('PUT', `/api/users/${adminId}`, { token: admin, body: form({ email: 'admin@lifeline.test', name: 'Admin' }) }));
    expectError(res, 403, ONLY_OPERATORS);
  });

  it.each([['an unknown id', '999999'], ['a non-numeric id', 'abc'], ['a negative id', '-2'], ['id 0', '0'], ['a fractional id', '2.5']])(
    'answers 404 for %s and changes nothing',
    async (_what, id) => {
      const res = await expectNoWrite(s.ctx.db, () => s.api('PUT', `/api/users/${id}`, { token: admin, body: form() }));
      expectError(res, 404, NOT_FOUND);
    },
  );

  it('answers 409 when taking another account’s e-mail and changes nothing', async () => {
    const user = await createUser();
    const res = await expectNoWrite(s.ctx.db, () => s.api('PUT', `/api/users/${user.id}`, { token: admin, body: form({ email: 'Operator@lifeline.test' }) }));
    expectError(res, 409, DUPLICATE);
  });

  it('answers 400 for an invalid body and changes nothing', async () => {
    const user = await createUser();
    for (const [over, error] of [[{ role: 'admin' }, 'role: only operator accounts can be created'], [{ name: '' }, 'name: required']] as const) {
      const res = await expectNoWrite(s.ctx.db, () => s.api('PUT', `/api/users/${user.id}`, { token: admin, body: form(over) }));
      expectError(res, 400, error);
    }
  });
});

describe('DELETE /api/users/{id}', () => {
  it("deletes an operator and revokes the operator's sessions at once", async () => {
    const user = await createUser({ phone: '5550133' });
    const token = await s.signIn({ email: user.email, username: user.name, phone: '5550133' });
    expect((await s.api('GET', '/api/auth/profile', { token })).status).toBe(200);
    const res = await s.api('DELETE', `/api/users/${user.id}`, { token: admin });
    expect(res).toMatchObject({ status: 200, body: { success: true, id: user.id } });
    expect(await userRow(user.id)).toBeUndefined();
    expect(await s.ctx.db('sessions').where({ user_id: user.id }).whereNull('revoked_at')).toEqual([]);
    expectError(await s.api('GET', '/api/auth/profile', { token }), 401, 'Your session has expired or was revoked; please sign in again');
    expectError(await s.api('GET', '/api/cases', { token }), 401, 'Your session has expired or was revoked; please sign in again');
    expect((await s.api('GET', '/api/users/operators', { token: admin })).body.operators.map((o: any) => o.id)).not.toContain(user.id);
  });

  it("keeps the deleted operator's cases, without an operator", async () => {
    const user = await createUser({ phone: '5550144' });
    const token = await s.signIn({ email: user.email, username: user.name, phone: '5550144' });
    const created = await s.api('POST', '/live-location', { token, body: { to: 'patient@example.com', status: 'active', patientName: 'P', description: 'Stroke', license_plate: 1, operator_id: user.id } });
    expect(created.status).toBe(201);
    expect((await s.api('DELETE', `/api/users/${user.id}`, { token: admin })).status).toBe(200);
    expect(await s.ctx.db('cases').where({ id: created.body.caseId }).first()).toMatchObject({ operator_id: null });
  });

  it('answers 403 for the admin account and changes nothing', async () => {
    const res = await expectNoWrite(s.ctx.db, () => s.api('DELETE', `/api/users/${adminId}`, { token: admin }));
    expectError(res, 403, ONLY_OPERATORS);
    expect((await s.api('GET', '/api/auth/profile', { token: admin })).status).toBe(200);
  });

  it.each([['an unknown id', '999999'], ['a non-numeric id', 'x1']])('answers 404 for %s and changes nothing', async (_what, id) => {
    const res = await expectNoWrite(s.ctx.db, () => s.api('DELETE', `/api/users/${id}`, { token: admin }));
    expectError(res, 404, NOT_FOUND);
  });

  it('answers 404 the second time', async () => {
    const user = await createUser();
    expect((await s.api('DELETE', `/api/users/${user.id}`, { token: admin })).status).toBe(200);
    expectError(await s.api('DELETE', `/api/users/${user.id}`, { token: admin }), 404, NOT_FOUND);
  });
});

describe('POST /api/users/{id}/signout', () => {
  const EXPIRED = 'Your session has expired or was revoked; please sign in again';

  it("ends every live session of an operator at once: both get 401, the operator's socket is disconnected, others stay signed in", async () => {
    const user = await createUser({ phone: '5550155' });
    const login = { email: user.email, username: user.name, phone: '5550155' };
    const phoneSession = await s.signIn(login);
    const deskSession = await s.signIn(login);
    const bystander = await s.signIn('operator');
    // Each session proven in use first, so that this node remembers its principal.
    for (const token of [phoneSession, deskSession, bystander]) expect((await s.api('GET', '/api/cases', { token })).status).toBe(200);
    const sock = await s.socket({ token: deskSession });
    const gone = new Promise<string>((resolve) => sock.once('disconnect', resolve));

    const res = await s.api('POST', `/api/users/${user.id}/signout`, { token: admin });
    expect(res).toMatchObject({ status: 200, body: { success: true, revoked: 2 } });
    expect(Object.keys(res.body).sort()).toEqual(['revoked', 'success']);
    for (const token of [phoneSession, deskSession]) {
      expectError(await s.api('GET', '/api/cases', { token }), 401, EXPIRED);
      expectError(await s.api('GET', '/api/auth/profile', { token }), 401, EXPIRED);
    }
    expect(await Promise.race([gone, new Promise((r) => setTimeout(() => r('still connected'), 1000))])).toBe('io server disconnect');
    expect(await s.ctx.db('sessions').where({ user_id: user.id }).whereNull('revoked_at')).toEqual([]);
    expect((await s.api('GET', '/api/cases', { token: bystander })).status).toBe(200);
    expect((await s.api('GET', '/api/auth/profile', { token: admin })).status).toBe(200);
    // The account itself is untouched: its owner signs in again.
    expect(await userRow(user.id)).toMatchObject({ version: 1 });
    expect((await s.api('GET', '/api/cases', { token: await s.signIn(login) })).status).toBe(200);
  });

  it('counts only live sessions: signed-out and expired ones are not ended again; a second call ends none', async () => {
    const user = await createUser({ phone: '5550156' });
    const login = { email: user.email, username: user.name, phone: '5550156' };
    const live = await s.signIn(login);
    const signedOut = await s.signIn(login);
    expect((await s.api('POST', '/api/auth/signout', { token: signedOut })).status).toBe(200);
    await s.signIn(login);
    await s.ctx.db('sessions').where({ user_id: user.id }).whereNull('revoked_at').orderBy('id', 'desc').limit(1)
      .then(([row]) => s.ctx.db('sessions').where({ id: row.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() }));
    const res = await s.api('POST', `/api/users/${user.id}/signout`, { token: admin });
    expect(res.body).toEqual({ success: true, revoked: 1 });
    expectError(await s.api('GET', '/api/cases', { token: live }), 401, EXPIRED);
    expect((await s.api('POST', `/api/users/${user.id}/signout`, { token: admin })).body).toEqual({ success: true, revoked: 0 });
  });

  it("ends an admin's sessions too (any role), the caller's own included", async () => {
    const other = await s.signIn('admin');
    const res = await s.api('POST', `/api/users/${adminId}/signout`, { token: other });
    expect(res.status).toBe(200);
    expect(res.body.revoked).toBeGreaterThanOrEqual(2);
    expectError(await s.api('GET', '/api/cases', { token: other }), 401, EXPIRED);
    expectError(await s.api('GET', '/api/cases', { token: admin }), 401, EXPIRED);
    admin = await s.signIn('admin');
  });

  it('answers 403 to an operator and ends nothing', async () => {
    const target = await s.signIn('admin');
    const res = await expectNoWrite(s.ctx.db, () => s.api('POST', `/api/users/${adminId}/signout`, { token: operator }));
    expectError(res, 403, 'Only admins can sign staff out');
    expect((await s.api('GET', '/api/cases', { token: target })).status).toBe(200);
  });

  it('answers 401 without a session', async () => {
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', `/api/users/${operatorId}/signout`)), 401, 'Authentication required');
  });

  it.each([['an unknown id', '999999'], ['a non-numeric id', 'abc'], ['id 0', '0']])('answers 404 for %s and changes nothing', async (_what, id) => {
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', `/api/users/${id}/signout`, { token: admin })), 404, NOT_FOUND);
  });
});
