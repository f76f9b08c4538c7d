import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../testing/assertions';
import { casePayload, rowCount } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';
import { DEMO } from '../../testing/demoAccounts';
import { KEY_TTL_MS, canonicalJson, messages, requestHash } from './idempotency';

const s = useTestServer();
let operator: string;
let admin: string;
let seq = 0;
const newKey = () => `test-key-${Date.now()}-${++seq}`;
const keyed = (key: string) => ({ 'Idempotency-Key': key });

beforeAll(async () => {
  [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
});

/** Frees every ambulance again between tests: closes every active case. */
async function closeAll() {
  for (const c of await s.ctx.db('cases').where({ status: 'active' })) {
    await s.api('PUT', `/api/cases/${c.id}`, { token: operator, body: { status: 'closed' } });
  }
}

/**
 * Holds the next write transaction (through the real knex instance the services use) until
 * `release` is called: the first request is then provably "still running".
 */
function holdNextTransaction() {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  let entered!: () => void;
  const reached = new Promise<void>((r) => { entered = r; });
  const restore = replaceTransaction(async (original, args) => {
    restore();
    entered();
    await gate;
    return original(...args);
  });
  return { reached, release: () => { restore(); release(); } };
}

/** Puts `fn` in place of `transaction` on the knex instance the routes' services use; answers the undo. */
function replaceTransaction(fn: (original: (...a: any[]) => Promise<unknown>, args: any[]) => Promise<unknown>) {
  const real = s.ctx.db;
  const original = (...a: any[]) => (real.transaction as any)(...a);
  s.ctx.db = new Proxy(real, { get: (t, p) => (p === 'transaction' ? (...args: any[]) => fn(original, args) : Reflect.get(t, p)) });
  return () => { s.ctx.db = real; };
}

describe('Idempotency-Key on POST /live-location', () => {
  it("replays the first answer exactly to a retry: one case, one dispatch's timeline entries, one patient's and one crew's e-mail", async () => {
    await closeAll();
    const key = newKey();
    const body = casePayload(1, { patientName: 'Idem Replay' });
    const first = await s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await s.api('POST', '/live-location', { token: operator, body: reordered, headers: keyed(key) });
    const third = await s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    for (const retry of [again, third]) {
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
    }
    const caseId = first.body.caseId;
    expect(await rowCount(s, 'cases', { patient_name: 'Idem Replay' })).toBe(1);
    expect((await s.ctx.db('outbox').where({ case_id: caseId }).orderBy('id').pluck('kind'))).toEqual(['tracking-driver', 'share-location']);
    expect((await s.ctx.db('case_events').where({ case_id: caseId }).orderBy('id').pluck('action'))).toEqual(['created', 'tracking']);
    expect(await rowCount(s, 'track_tokens', { case_id: caseId })).toBe(2);
    // The answer was stored with the write.
    const row = await s.ctx.db('idempotency_keys').where({ key }).first();
    expect(row).toMatchObject({ status: 'done', response_status: 201, request_hash: requestHash('POST', '/live-location', body) });
    expect(JSON.parse(row.response_body)).toEqual(first.body);
  });

  it('answers 422 when the key comes back with a different body, and writes nothing', async () => {
    await closeAll();
    const key = newKey();
    expect((await s.api('POST', '/live-location', { token: operator, body: casePayload(2, { patientName: 'Idem A' }), headers: keyed(key) })).status).toBe(201);
    const before = await rowCount(s, 'cases');
    const other = await s.api('POST', '/live-location', { token: operator, body: casePayload(3, { patientName: 'Idem B' }), headers: keyed(key) });
    expectError(other, 422, messages.mismatch);
    // The same body on another route is another request too.
    expectError(await s.api('POST', '/api/cases', { token: operator, body: casePayload(2, { patientName: 'Idem A' }), headers: keyed(key) }), 422, messages.mismatch);
    expect(await rowCount(s, 'cases')).toBe(before);
    expect((await s.ctx.db('ambulances').where({ id: 3 }).first()).status).toBe('available');
  });

  it('answers 409 while the first request is still running, then replays its answer', async () => {
    await closeAll();
    const key = newKey();
    const body = casePayload(4, { patientName: 'Idem Slow' });
    const hold = holdNextTransaction();
    const slow = s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    await hold.reached; // the first request holds the key and is inside its write
    const concurrent = await s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    expectError(concurrent, 409, messages.running);
    hold.release();
    const first = await slow;
    expect(first.status).toBe(201);
    const retry = await s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    expect(retry.body).toEqual(first.body);
    expect(await rowCount(s, 'cases', { patient_name: 'Idem Slow' })).toBe(1);
  });

  it('two identical requests sent together write once; each answer is the first one or a 409', async () => {
    await closeAll();
    const key = newKey();
    const body = casePayload(5, { patientName: 'Idem Together' });
    const answers = await Promise.all([0, 1, 2].map(() => s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) })));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of created) expect(a.body).toEqual(created[0].body);
    for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 409, messages.running);
    expect(await rowCount(s, 'cases', { patient_name: 'Idem Together' })).toBe(1);
    // The patient's mail and the crew's, once.
    expect(await rowCount(s, 'outbox', { case_id: created[0].body.caseId })).toBe(2);
  });

  it('keys are per user: the same key from two users makes two cases', async () => {
    await closeAll();
    const key = newKey();
    const a = await s.api('POST', '/live-location', { token: operator, body: casePayload(6, { patientName: 'Idem Users' }), headers: keyed(key) });
    const b = await s.api('POST', '/live-location', { token: admin, body: casePayload(7, { patientName: 'Idem Users' }), headers: keyed(key) });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.caseId).not.toBe(b.body.caseId);
    expect(await rowCount(s, 'cases', { patient_name: 'Idem Users' })).toBe(2);
  });

  it('without a key every request is its own (the behaviour before keys)', async () => {
    await closeAll();
    const body = casePayload(undefined, { patientName: 'Idem None' });
    const keys = await rowCount(s, 'idempotency_keys');
    const [a, b] = [await s.api('POST', '/live-location', { token: operator, body }), await s.api('POST', '/live-location', { token: operator, body })];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.caseId).not.toBe(b.body.caseId);
    expect(await rowCount(s, 'cases', { patient_name: 'Idem None' })).toBe(2);
    expect(await rowCount(s, 'idempotency_keys')).toBe(keys);
  });

  it('refuses a key that is empty, too long or not printable with 400, and writes nothing', async () => {
    const before = await rowCount(s, 'cases');
    for (const bad of ['', 'x'.repeat(201), 'tab\there']) {
      expectError(await s.api('POST', '/live-location', { token: operator, body: casePayload(undefined), headers: keyed(bad) }), 400, messages.invalid);
    }
    expect((await s.api('POST', '/live-location', { token: operator, body: casePayload(undefined, { patientName: 'Idem Long' }), headers: keyed('k'.repeat(200)) })).status).toBe(201);
    expect(await rowCount(s, 'cases')).toBe(before + 1);
  });

  it('stores a 4xx answer and replays it, even once the request would now succeed', async () => {
    await closeAll();
    const holder = await s.api('POST', '/live-location', { token: operator, body: casePayload(8, { patientName: 'Idem Holder' }) });
    const key = newKey();
    const body = casePayload(8, { patientName: 'Idem Refused' });
    const refused = await s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    expect(refused.status).toBe(409);
    await s.api('PUT', `/api/cases/${holder.body.caseId}`, { token: operator, body: { status: 'closed' } });
    const retry = await s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    expect({ status: retry.status, body: retry.body }).toEqual({ status: refused.status, body: refused.body });
    expect(await rowCount(s, 'cases', { patient_name: 'Idem Refused' })).toBe(0);
    // A validation refusal too.
    const invalidKey = newKey();
    const invalid = await s.api('POST', '/live-location', { token: operator, body: { patientName: 'x' }, headers: keyed(invalidKey) });
    expect(invalid.status).toBe(400);
    expect((await s.api('POST', '/live-location', { token: operator, body: { patientName: 'x' }, headers: keyed(invalidKey) })).body).toEqual(invalid.body);
  });

  it('releases the key after a 5xx so that a retry runs', async () => {
    await closeAll();
    const key = newKey();
    const body = casePayload(1, { patientName: 'Idem Five' });
    const restore = replaceTransaction(async () => { throw new Error('disk on fire (test)'); });
    const failed = await s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    restore();
    expectError(failed, 500, 'Internal server error');
    expect(await s.ctx.db('idempotency_keys').where({ key }).first()).toBeUndefined();
    const retry = await s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    expect(retry.status).toBe(201);
    expect(await rowCount(s, 'cases', { patient_name: 'Idem Five' })).toBe(1);
  });

  it('takes over a claim left running by a crashed process', async () => {
    await closeAll();
    const key = newKey();
    const body = casePayload(2, { patientName: 'Idem Crashed' });
    const userId = (await s.ctx.db('users').where({ email: DEMO.operator.email }).first()).id;
    // SQLite (one process per file) takes a dead process's claim over at once; PostgreSQL (several
    // nodes) only once it has made no progress for its lease (60 s): the claim is that old there.
    const now = new Date(Date.now() - (s.engine === 'postgres' ? 120_000 : 0)).toISOString();
    await s.ctx.db('idempotency_keys').insert({
      user_id: userId, key, request_hash: requestHash('POST', '/live-location', body), status: 'running', owner: 'a-process-that-died', created_at: now, updated_at: now,
    });
    const res = await s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    expect(res.status).toBe(201);
    expect(await rowCount(s, 'cases', { patient_name: 'Idem Crashed' })).toBe(1);
  });

  it('writes nothing when the claim stopped being its own before the commit (the write and the key commit together)', async () => {
    await closeAll();
    const key = newKey();
    const body = casePayload(3, { patientName: 'Idem Stolen' });
    const hold = holdNextTransaction();
    const pending = s.api('POST', '/live-location', { token: operator, body, headers: keyed(key) });
    await hold.reached;
    await s.ctx.db('idempotency_keys').where({ key }).update({ owner: 'another-process' });
    hold.release();
    expectError(await pending, 409, messages.running);
    expect(await rowCount(s, 'cases', { patient_name: 'Idem Stolen' })).toBe(0);
    expect((await s.ctx.db('ambulances').where({ id: 3 }).first()).status).toBe('available');
  });

  it('forgets keys after 24 hours', async () => {
    const key = newKey();
    const userId = (await s.ctx.db('users').where({ email: DEMO.operator.email }).first()).id;
    const old = new Date(Date.now() - KEY_TTL_MS - 60_000).toISOString();
    await s.ctx.db('idempotency_keys').insert({
      user_id: userId, key, request_hash: 'f'.repeat(64), status: 'done', response_status: 201, response_body: '{}', owner: 'x', created_at: old, updated_at: old,
    });
    // An expired key with another body is a new request, not a 422.
    const res = await s.api('POST', '/live-location', { token: operator, body: casePayload(undefined, { patientName: 'Idem Expired' }), headers: keyed(key) });
    expect(res.status).toBe(201);
    expect((await s.ctx.db('idempotency_keys').where({ key }).first()).created_at > old).toBe(true);
  });
});

describe('Idempotency-Key on the other creating routes', () => {
  it('POST /api/cases replays', async () => {
    const key = newKey();
    const body = casePayload(undefined, { patientName: 'Idem Form' });
    const a = await s.api('POST', '/api/cases', { token: operator, body, headers: keyed(key) });
    const b = await s.api('POST', '/api/cases', { token: operator, body, headers: keyed(key) });
    expect(a.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect(await rowCount(s, 'cases', { patient_name: 'Idem Form' })).toBe(1);
    expect(await rowCount(s, 'outbox', { case_id: a.body.case.id })).toBe(0);
  });

  it('POST /api/ambulances replays', async () => {
    const key = newKey();
    const body = { license_plate: 'IDEM 1', status: 'available' };
    const a = await s.api('POST', '/api/ambulances', { token: admin, body, headers: keyed(key) });
    const b = await s.api('POST', '/api/ambulances', { token: admin, body, headers: keyed(key) });
    expect(a.status).toBe(201);
    expect(b).toMatchObject({ status: 201, body: a.body });
    // Without the key the same plate is a conflict: the replay really wrote nothing.
    expect((await s.api('POST', '/api/ambulances', { token: admin, body })).status).toBe(409);
    expect(await rowCount(s, 'ambulances', { license_plate: 'IDEM 1' })).toBe(1);
  });

  it('POST /api/users replays', async () => {
    const key = newKey();
    const body = { name: 'Idem Operator', email: 'idem.operator@lifeline.test', phone: '5550199', shift: 1, gender: 2 };
    const a = await s.api('POST', '/api/users', { token: admin, body, headers: keyed(key) });
    const b = await s.api('POST', '/api/users', { token: admin, body, headers: keyed(key) });
    expect(a.status).toBe(201);
    expect(b).toMatchObject({ status: 201, body: a.body });
    expect(await rowCount(s, 'users', { email: 'idem.operator@lifeline.test' })).toBe(1);
  });

  it('a refusal before the key is read (no sign-in) stores nothing', async () => {
    const key = newKey();
    const before = await rowCount(s, 'idempotency_keys');
    expect((await s.api('POST', '/api/users', { token: operator, body: { name: 'x' }, headers: keyed(key) })).status).toBe(403);
    expect((await s.api('POST', '/live-location', { body: casePayload(undefined), headers: keyed(key) })).status).toBe(401);
    expect(await rowCount(s, 'idempotency_keys')).toBe(before);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null }, u: undefined })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(canonicalJson(undefined)).toBe('null');
  });
});
