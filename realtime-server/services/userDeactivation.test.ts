import type { Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoWrite } from '../testing/assertions';
import { nextEvent, roundTrip, useTestServer } from '../testing/testServer';

/**
 * Deactivating an operator (PUT /api/users/{id} {active:false}) or deleting one ends their
 * sessions and disconnects their sockets within a second; a deactivated operator cannot sign in.
 */

const NO_ACCOUNT = 'No staff account matches this email, username and phone number';
const EXPIRED = 'Your session has expired or was revoked; please sign in again';

const s = useTestServer();
let admin: string;
beforeAll(async () => {
  admin = await s.signIn('admin');
});

let n = 0;
async function newOperator() {
  n += 1;
  const body = { name: `Shift Worker ${n}`, email: `shift${n}@lifeline.test`, phone: `555 06${String(n).padStart(2, '0')}`, shift: 3, gender: 2, location: 'Desk 9' };
  const res = await s.api('POST', '/api/users', { token: admin, body });
  expect(res.status).toBe(201);
  expect(res.body.user.active).toBe(true);
  return { id: res.body.user.id as number, body, login: { email: body.email, username: body.name, phone: body.phone } };
}

/** The operator signed in twice (two tabs), each tab with its socket. */
async function signedInTwice(login: { email: string; username: string; phone: string }) {
  const tokens = [await s.signIn(login), await s.signIn(login)];
  const sockets = [await s.socket({ token: tokens[0] }), await s.socket({ token: tokens[1] })];
  return { tokens, sockets };
}

/** Resolves with the ms until the socket was disconnected by the server, from `started`. */
function disconnectedWithin(sock: Socket<any, any>, started: () => number) {
  return nextEvent<string>(sock, 'disconnect', 3000).then((reason) => ({ reason, ms: Date.now() - started() }));
}

describe('deactivating an operator', () => {
  it('revokes every session and disconnects every socket within a second; sign-in then answers 401', async () => {
    const op = await newOperator();
    const { tokens, sockets } = await signedInTwice(op.login);
    const adminSocket = await s.socket({ token: admin });
    const updated = nextEvent<any>(adminSocket, 'user.updated', 2000, (u) => u.id === op.id);
    let at = 0;
    const gone = sockets.map((sock) => disconnectedWithin(sock, () => at));

    at = Date.now();
    const res = await s.api('PUT', `/api/users/${op.id}`, { token: admin, body: { ...op.body, active: false } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: op.id, active: false });

    for (const { reason, ms } of await Promise.all(gone)) {
      expect(reason).toBe('io server disconnect');
      expect(ms).toBeLessThan(1000);
    }
    expect((await updated).active).toBe(false);
    for (const token of tokens) expectError(await s.api('GET', '/api/auth/profile', { token }), 401, EXPIRED);
    const sessions = await s.ctx.db('sessions').where({ user_id: op.id });
    expect(sessions.length).toBe(2);
    expect(sessions.every((r) => r.revoked_at)).toBe(true);
    expectError(await expectNoWrite(s.ctx.db, () => s.api('POST', '/api/auth/signin', { body: op.login })), 401, NO_ACCOUNT);
    // A socket with the old token is refused at the handshake.
    await expect(s.socket({ token: tokens[0] })).rejects.toThrow('unauthorized');
    adminSocket.disconnect();
  });

  it('an edit without `active` leaves a deactivated account deactivated; active:true lets them sign in again (old sessions stay revoked)', async () => {
    const op = await newOperator();
    const old = await s.signIn(op.login);
    expect((await s.api('PUT', `/api/users/${op.id}`, { token: admin, body: { ...op.body, active: false } })).status).toBe(200);
    const edited = await s.api('PUT', `/api/users/${op.id}`, { token: admin, body: { ...op.body, location: 'Desk 10' } });
    expect(edited.body.user).toMatchObject({ location: 'Desk 10', active: false });
    expect((await s.api('POST', '/api/auth/signin', { body: op.login })).status).toBe(401);

    const back = await s.api('PUT', `/api/users/${op.id}`, { token: admin, body: { ...op.body, active: true } });
    expect(back.body.user.active).toBe(true);
    const fresh = await s.signIn(op.login);
    expect((await s.api('GET', '/api/auth/profile', { token: fresh })).status).toBe(200);
    expectError(await s.api('GET', '/api/auth/profile', { token: old }), 401, EXPIRED);
  });

  it('an edit without `active` of an active account keeps it active and its sessions alive', async () => {
    const op = await newOperator();
    const token = await s.signIn(op.login);
    const sock = await s.socket({ token });
    const res = await s.api('PUT', `/api/users/${op.id}`, { token: admin, body: { ...op.body, address: '1 Lake Road' } });
    expect(res.body.user.active).toBe(true);
    expect((await s.api('GET', '/api/auth/profile', { token })).status).toBe(200);
    await roundTrip(sock);
    expect(sock.connected).toBe(true);
    sock.disconnect();
  });

  it('lists the deactivated operator with active:false', async () => {
    const op = await newOperator();
    await s.api('PUT', `/api/users/${op.id}`, { token: admin, body: { ...op.body, active: false } });
    const listed = (await s.api('GET', '/api/users/operators', { token: admin })).body.operators.find((o: any) => o.id === op.id);
    expect(listed.active).toBe(false);
  });

  it.each([['a string', 'no'], ['a number', 0], ['null', null]])('answers 400 for `active` as %s and changes nothing', async (_what, active) => {
    const op = await newOperator();
    const res = await expectNoWrite(s.ctx.db, () => s.api('PUT', `/api/users/${op.id}`, { token: admin, body: { ...op.body, active } }));
    expectError(res, 400, /^active: /);
  });

  it('an operator cannot deactivate anyone (403), themselves included', async () => {
    const op = await newOperator();
    const token = await s.signIn(op.login);
    const res = await expectNoWrite(s.ctx.db, () => s.api('PUT', `/api/users/${op.id}`, { token, body: { ...op.body, active: false } }));
    expect(res.status).toBe(403);
  });
});

describe('deleting an operator', () => {
  it('revokes their sessions and disconnects their sockets within a second; sign-in answers 401', async () => {
    const op = await newOperator();
    const { tokens, sockets } = await signedInTwice(op.login);
    let at = 0;
    const gone = sockets.map((sock) => disconnectedWithin(sock, () => at));
    at = Date.now();
    expect((await s.api('DELETE', `/api/users/${op.id}`, { token: admin })).status).toBe(200);
    for (const { reason, ms } of await Promise.all(gone)) {
      expect(reason).toBe('io server disconnect');
      expect(ms).toBeLessThan(1000);
    }
    for (const token of tokens) expectError(await s.api('GET', '/api/auth/profile', { token }), 401, EXPIRED);
    expectError(await s.api('POST', '/api/auth/signin', { body: op.login }), 401, NO_ACCOUNT);
  });
});
