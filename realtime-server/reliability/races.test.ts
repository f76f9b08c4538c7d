import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { canonicalJson } from '../http/middleware/idempotency';
import { casePayload, locationSharePath, rememberLocationLink } from '../testing/dispatchHelpers';
import { dropSchema, onPostgresPass, postgresSkipReason, postgresSuitesUrl, withSchema } from '../testing/testEngine';
import { type ApiResult, type TestServer, useTestServer } from '../testing/testServer';
import { UNIT_STEPS, type UnitStep } from '../contract';
import { checkInvariants } from './invariants';

/**
 * Random interleavings of dispatch, close/resolve/reopen, reassign, a waiting call's dispatch (a free
 * unit, or one diverted from another call: queueRaces.test.ts aims at those), case deletion, patient
 * location shares, positions, units' steps (en route … cleared, some pressed offline earlier) and
 * ambulance edits (status, create, delete), sent in concurrent batches
 * through the real API of a real server; after each run the invariants are read straight
 * from the database and every 2xx answer's effect is looked for.
 *
 * RACES_RUNS=500 npx vitest run realtime-server/reliability/races.test.ts   (more runs)
 * RACES_SEED=… replays a failing run (fast-check prints the seed and path).
 */
const RUNS = Number(process.env.RACES_RUNS ?? 100);
const SEED = process.env.RACES_SEED ? Number(process.env.RACES_SEED) : undefined;
const FLEET = 3;

type CaseStatus = 'active' | 'closed' | 'resolved' | 'pending';
type Op =
  | { kind: 'dispatch'; amb: number; key: number | null; priority: number; wait: boolean }
  | { kind: 'caseStatus'; c: number; status: CaseStatus }
  | { kind: 'reassign'; c: number; amb: number }
  | { kind: 'queueDispatch'; c: number; amb: number; from: number | null }
  | { kind: 'deleteCase'; c: number }
  | { kind: 'share'; c: number }
  | { kind: 'ambulanceStatus'; amb: number; status: 'available' | 'busy' | 'maintenance' }
  | { kind: 'deleteAmbulance'; amb: number }
  | { kind: 'createAmbulance' }
  | { kind: 'position'; amb: number }
  | { kind: 'unitStatus'; amb: number; status: UnitStep; back: number }
  | { kind: 'addUnit'; c: number; amb: number }
  | { kind: 'standDown'; c: number; which: number };

const slot = fc.nat({ max: 31 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  // Some dispatches carry one of a few Idempotency-Keys: retries and clashes race too. A third of the calls are
  // queued (pending, no unit), and priorities vary, so that waiting calls take units and divert them.
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('dispatch' as const), amb: fc.integer({ min: -1, max: 31 }), key: fc.option(fc.nat({ max: 2 }), { freq: 2 }),
      priority: fc.integer({ min: 1, max: 4 }), wait: fc.constantFrom(false, false, true),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('caseStatus' as const), c: slot, status: fc.constantFrom<CaseStatus>('active', 'closed', 'resolved', 'pending') }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reassign' as const), c: slot, amb: fc.integer({ min: -1, max: 31 }) }) },
  // A waiting call takes a unit, free or diverted from another call (POST /api/cases/{id}/dispatch).
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('queueDispatch' as const), c: slot, amb: slot, from: fc.option(slot, { freq: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteCase' as const), c: slot }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('share' as const), c: slot }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('ambulanceStatus' as const), amb: slot, status: fc.constantFrom('available' as const, 'busy' as const, 'maintenance' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteAmbulance' as const), amb: slot }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('createAmbulance' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('position' as const), amb: slot }) },
  // A unit's step, sometimes with a press time in the past (a queued offline press).
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('unitStatus' as const), amb: slot, status: fc.constantFrom(...UNIT_STEPS), back: fc.constantFrom(0, 0, 5_000, 3600_000) }) },
  // Several units on one call: another unit added, or one of a call's units stood down.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('addUnit' as const), c: slot, amb: slot }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('standDown' as const), c: slot, which: fc.nat({ max: 2 }) }) },
);
/** A run: up to six batches, each of one to six requests sent at once. */
const runArb = fc.array(fc.array(opArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 });

/** Which answers each request may get; anything else (a 5xx above all) fails the run. */
const ALLOWED: Record<Op['kind'], number[]> = {
  dispatch: [201, 409, 422],
  caseStatus: [200, 404, 409],
  reassign: [200, 404, 409, 422],
  // 400: a unit taken from the call itself.
  queueDispatch: [200, 400, 404, 409, 422],
  deleteCase: [200, 404],
  share: [200, 404, 410],
  ambulanceStatus: [200, 404, 409],
  deleteAmbulance: [200, 404, 409],
  createAmbulance: [201],
  position: [200, 404],
  unitStatus: [200, 404, 409],
  addUnit: [201, 404, 409, 422],
  standDown: [200, 404, 409],
};

interface Logged { op: Op; target?: string | number; key?: string; res: ApiResult }

export const figures = { runs: 0, batches: 0, requests: 0, statuses: {} as Record<string, number>, invariantChecks: 0 };

function racer(s: () => TestServer, tokens: () => { operator: string; admin: string }) {
  let plates = 0;
  const nextPlate = () => `RACE ${String(++plates).padStart(4, '0')}`;

  async function reset() {
    const { db } = s().ctx;
    await db.transaction(async (trx) => {
      for (const t of ['track_tokens', 'ambulance_positions', 'outbox', 'case_events', 'idempotency_keys', 'assignments', 'cases', 'ambulances']) await trx(t).delete();
      for (let i = 0; i < FLEET; i++) {
        await ambulanceRepository.insert(trx, { license_plate: nextPlate(), status: 'available', latitude: 17.4, longitude: 78.5 });
      }
    });
    return (await db('ambulances').orderBy('id').pluck('id')).map(Number);
  }

  let runId = 0;
  async function send(op: Op, ambulances: number[], cases: string[]): Promise<Logged> {
    const { operator, admin } = tokens();
    const api = s().api;
    const amb = (i: number) => (i < 0 ? undefined : ambulances[i % ambulances.length]);
    const kase = (i: number) => cases[i % cases.length] ?? '00000000-0000-4000-8000-000000000000';
    switch (op.kind) {
      case 'dispatch': {
        const key = op.key === null ? undefined : `race-${runId}-${op.key}`;
        const headers: Record<string, string> = key ? { 'Idempotency-Key': key } : {};
        const body = op.wait
          ? casePayload(undefined, { patientName: 'Race Patient', priority: op.priority, status: 'pending' })
          : casePayload(amb(op.amb), { patientName: 'Race Patient', priority: op.priority });
        const res = rememberLocationLink(await api('POST', '/live-location', { token: operator, body, headers }));
        return { op, target: amb(op.amb), key, res };
      }
      case 'caseStatus':
        return { op, target: kase(op.c), res: await api('PUT', `/api/cases/${kase(op.c)}`, { token: operator, body: { status: op.status } }) };
      case 'reassign':
        return { op, target: kase(op.c), res: await api('PUT', `/api/cases/${kase(op.c)}`, { token: operator, body: { ambulance_id: amb(op.amb) ?? null } }) };
      case 'queueDispatch': {
        // Aimed at the calls as they are when the request leaves (they may change meanwhile: that is the race):
        // a waiting call, and for a diversion a call holding a unit (of any priority or step: refusals race too).
        const { db } = s().ctx;
        const waiting: string[] = await db('cases').whereIn('id', cases)
          .where((q) => q.where('status', 'pending').orWhere((a) => a.where('status', 'active').whereNull('ambulance_id'))).orderBy('id').pluck('id');
        const target = waiting.length ? waiting[op.c % waiting.length] : kase(op.c);
        let body: Record<string, unknown> = { ambulance_id: amb(op.amb) };
        if (op.from !== null) {
          const holding: { id: string; ambulance_id: number }[] = await db('cases').whereIn('id', cases).whereNot('id', target)
            .where('status', 'active').whereNotNull('ambulance_id').orderBy('id').select('id', 'ambulance_id');
          const from = holding.length ? holding[op.from % holding.length] : undefined;
          body = { ambulance_id: from ? Number(from.ambulance_id) : amb(op.amb), take_from_case_id: from?.id ?? kase(op.from) };
        }
        return { op, target, res: await api('POST', `/api/cases/${target}/dispatch`, { token: operator, body }) };
      }
      case 'deleteCase':
        return { op, target: kase(op.c), res: await api('DELETE', `/api/cases/${kase(op.c)}`, { token: admin }) };
      case 'share':
      {
        // The patient's own link; a case with none known (the placeholder id) is shared at without a token.
        const path = await locationSharePath(s(), kase(op.c)).catch(() => `/api/location/${kase(op.c)}`);
        return { op, target: kase(op.c), res: await api('POST', path, { body: { latitude: 17.3 + Math.random() / 10, longitude: 78.4 + Math.random() / 10, accuracy: 12 } }) };
      }
      case 'ambulanceStatus':
        return { op, target: amb(op.amb), res: await api('PUT', `/api/ambulances/${amb(op.amb)}`, { token: operator, body: { status: op.status } }) };
      case 'deleteAmbulance':
        return { op, target: amb(op.amb), res: await api('DELETE', `/api/ambulances/${amb(op.amb)}`, { token: admin }) };
      case 'createAmbulance':
        return { op, res: await api('POST', '/api/ambulances', { token: admin, body: { license_plate: nextPlate(), status: 'available' } }) };
      case 'unitStatus': {
        const body = op.back ? { status: op.status, at: new Date(Date.now() - op.back).toISOString() } : { status: op.status };
        return { op, target: amb(op.amb), res: await api('POST', `/api/ambulances/${amb(op.amb)}/unit-status`, { token: operator, body }) };
      }
      case 'addUnit':
        return { op, target: kase(op.c), res: await api('POST', `/api/cases/${kase(op.c)}/assignments`, { token: operator, body: { ambulance_id: amb(op.amb) } }) };
      case 'standDown': {
        // One of the call's assignments as they are when the request leaves (open or not: refusals race too).
        const ids: number[] = await s().ctx.db('assignments').where({ case_id: kase(op.c) }).orderBy('id').pluck('id');
        const id = ids.length ? ids[op.which % ids.length] : 1;
        return { op, target: kase(op.c), res: await api('POST', `/api/cases/${kase(op.c)}/assignments/${id}/cancel`, { token: operator, body: { reason: 'race' } }) };
      }
      case 'position':
        return { op, target: amb(op.amb), res: await api('POST', `/api/ambulances/${amb(op.amb)}/position`, { token: operator, body: { latitude: 17.4 + Math.random() / 100, longitude: 78.5 + Math.random() / 100 } }) };
    }
  }

  /** Every 2xx answer's effect is in the database; no two answers show one version differently. */
  async function checkEffects(log: Logged[]): Promise<string[]> {
    const { db } = s().ctx;
    const problems: string[] = [];
    const casesNow = new Map((await db('cases').select('*')).map((c: any) => [c.id, c]));
    const ambulancesNow = new Map((await db('ambulances').select('*')).map((a: any) => [Number(a.id), a]));
    const ok = (l: Logged) => l.res.status >= 200 && l.res.status < 300;
    const deletedCases = new Set(log.filter((l) => l.op.kind === 'deleteCase' && ok(l)).map((l) => l.target));
    const deletedAmbulances = new Set(log.filter((l) => l.op.kind === 'deleteAmbulance' && ok(l)).map((l) => l.target));
    const seen = new Map<string, string>(); // case id@version → the DTO answered
    const latest = new Map<string, any>();
    const noteCase = (dto: any) => {
      const k = `${dto.id}@${dto.version}`;
      const body = canonicalJson(dto);
      if (seen.has(k) && seen.get(k) !== body) problems.push(`case ${dto.id} was answered twice at version ${dto.version} with different contents`);
      seen.set(k, body);
      if (!latest.has(dto.id) || latest.get(dto.id).version < dto.version) latest.set(dto.id, dto);
    };

    // One key, one write: every 201 answered to a key is the same answer, and made one case.
    const byKey = new Map<string, Logged[]>();
    for (const l of log) if (l.key && l.res.status === 201) byKey.set(l.key, [...(byKey.get(l.key) ?? []), l]);
    for (const [key, answers] of byKey) {
      if (new Set(answers.map((a) => canonicalJson(a.res.body))).size !== 1) problems.push(`Idempotency-Key ${key} was answered 201 with different bodies`);
    }
    for (const l of log) {
      if (!ALLOWED[l.op.kind].includes(l.res.status)) problems.push(`${l.op.kind} answered ${l.res.status} ${JSON.stringify(l.res.body)}`);
      if (!ok(l)) continue;
      switch (l.op.kind) {
        case 'dispatch': {
          const id = l.res.body.caseId;
          noteCase(l.res.body.case);
          if (!deletedCases.has(id) && !casesNow.has(id)) problems.push(`dispatched case ${id} (201) is missing`);
          const created = await db('case_events').where({ case_id: id, action: 'created' }).count({ n: '*' }).first();
          if (Number(created?.n) !== 1) problems.push(`dispatched case ${id} has ${created?.n} 'created' entries`);
          const mails = await db('outbox').where({ case_id: id, kind: 'share-location' }).count({ n: '*' }).first();
          if (Number(mails?.n) !== 1) problems.push(`dispatched case ${id} queued ${mails?.n} share-location e-mails`);
          break;
        }
        case 'caseStatus':
        case 'reassign':
        case 'addUnit':
        case 'standDown':
        case 'queueDispatch': {
          for (const dto of [l.res.body.case, l.res.body.requeued].filter(Boolean)) {
            noteCase(dto);
            const row = casesNow.get(dto.id);
            if (!deletedCases.has(dto.id) && (!row || Number(row.version) < dto.version)) problems.push(`case ${dto.id} answered at version ${dto.version} is ${row ? `at ${row.version}` : 'missing'}`);
          }
          break;
        }
        case 'deleteCase':
          if (casesNow.has(l.target)) problems.push(`deleted case ${l.target} is still there`);
          break;
        case 'createAmbulance': {
          const a = l.res.body.ambulance;
          if (!deletedAmbulances.has(a.id) && !ambulancesNow.has(a.id)) problems.push(`created ambulance ${a.id} is missing`);
          break;
        }
        case 'ambulanceStatus': {
          const a = l.res.body.ambulance;
          const row = ambulancesNow.get(a.id);
          if (!deletedAmbulances.has(a.id) && (!row || Number(row.version) < a.version)) problems.push(`ambulance ${a.id} answered at version ${a.version} is ${row ? `at ${row.version}` : 'missing'}`);
          break;
        }
        case 'deleteAmbulance':
          if (ambulancesNow.has(l.target as number)) problems.push(`deleted ambulance ${l.target} is still there`);
          break;
        case 'unitStatus': {
          // The step answered is on the assignment (a later step may have followed), and the answer's times are in order.
          const a = l.res.body.assignment;
          const now = await db('assignments').where({ id: a.id }).first();
          if (!deletedCases.has(a.case_id) && !now) problems.push(`assignment ${a.id} answered ${l.op.status} is missing`);
          else if (now && now[`${l.op.status}_at`] !== a[`${l.op.status}_at`]) problems.push(`assignment ${a.id}: ${l.op.status}_at answered ${a[`${l.op.status}_at`]} is ${now[`${l.op.status}_at`]}`);
          break;
        }
        case 'share':
        case 'position':
          break;
      }
    }
    // The newest answer about a case that nothing changed since is exactly what the server now shows.
    for (const [id, dto] of latest) {
      const row = casesNow.get(id);
      if (!row || Number(row.version) !== dto.version) continue;
      const now = await s().api('GET', `/api/cases/${id}`, { token: tokens().operator });
      if (canonicalJson(now.body.case) !== canonicalJson(dto)) problems.push(`case ${id} at version ${dto.version} reads differently from its last answer`);
    }
    return problems;
  }

  return async function run(batches: Op[][]) {
    runId += 1;
    const ambulances = await reset();
    const cases: string[] = [];
    const log: Logged[] = [];
    for (const batch of batches) {
      const done = await Promise.all(batch.map((op) => send(op, ambulances, cases)));
      for (const l of done) {
        log.push(l);
        figures.requests += 1;
        figures.statuses[l.res.status] = (figures.statuses[l.res.status] ?? 0) + 1;
        if (l.op.kind === 'dispatch' && l.res.status === 201 && !cases.includes(l.res.body.caseId)) cases.push(l.res.body.caseId);
        if (l.op.kind === 'createAmbulance' && l.res.status === 201) ambulances.push(l.res.body.ambulance.id);
      }
      figures.batches += 1;
    }
    figures.runs += 1;
    figures.invariantChecks += 1;
    const { violations } = await checkInvariants(s().ctx.db);
    const problems = [...violations, ...(await checkEffects(log))];
    if (problems.length) throw new Error(`after ${log.length} requests:\n  ${problems.join('\n  ')}`);
  };
}

function raceSuite(name: string, env: () => Record<string, string>, runs: number, cleanup?: () => Promise<void>) {
  describe(name, () => {
    afterAll(async () => { await cleanup?.(); });
    // Rate limits are another helper's guarantee: lifted here so that every request reaches the services.
    const s = useTestServer(() => ({ env: { LINK_LIMIT_PER_MIN: '1000000', ...env() } }));
    let operator = '';
    let admin = '';
    beforeAll(async () => {
      [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
    });

    it(`keeps every invariant over ${runs} random interleavings`, async () => {
      const run = racer(() => s, () => ({ operator, admin }));
      const before = { ...figures, statuses: { ...figures.statuses } };
      const started = Date.now();
      await fc.assert(fc.asyncProperty(runArb, run), { numRuns: runs, seed: SEED, endOnFailure: false });
      console.info(`[races] ${name}: ${figures.runs - before.runs} runs, ${figures.batches - before.batches} concurrent batches, ` +
        `${figures.requests - before.requests} requests (${Object.entries(figures.statuses).map(([k, v]) => `${k}: ${v - (before.statuses[k] ?? 0)}`).join(', ')}), ` +
        `invariants checked after every run, ${((Date.now() - started) / 1000).toFixed(1)} s`);
      expect(figures.runs - before.runs).toBeGreaterThanOrEqual(runs);
    }, 300_000);
  });
}

describe('what the race test found, pinned down', () => {
  const s = useTestServer();

  it('deleting an ambulance that a closed case names unassigns the case on its timeline, with a new version and an event', async () => {
    const [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
    const created = await s.api('POST', '/live-location', { token: operator, body: casePayload(4) });
    const caseId = created.body.caseId;
    const closed = await s.api('PUT', `/api/cases/${caseId}`, { token: operator, body: { status: 'closed' } });
    const staff = await s.socket({ token: operator });
    const heard = new Promise<any>((resolve) => staff.on('case.updated', (c: any) => { if (c.id === caseId) resolve(c); }));
    expect((await s.api('DELETE', '/api/ambulances/4', { token: admin })).status).toBe(200);
    const now = (await s.api('GET', `/api/cases/${caseId}`, { token: operator })).body.case;
    expect(now).toMatchObject({ ambulance_id: null, license_plate: null, status: 'closed', version: closed.body.case.version + 1 });
    expect(await heard).toEqual(now);
    const last = (await s.ctx.db('case_events').where({ case_id: caseId }).orderBy('id', 'desc').first());
    expect(last).toMatchObject({ action: 'updated', actor_type: 'user', actor_id: expect.any(Number) });
    expect([JSON.parse(last.before), JSON.parse(last.after)]).toEqual([{ ambulance_id: 4 }, { ambulance_id: null }]);
    expect((await checkInvariants(s.ctx.db)).violations).toEqual([]);
  });
});

const pgUrl = postgresSuitesUrl();
if (onPostgresPass()) {
  // TEST_ENGINE=postgres: the test servers are on PostgreSQL already; this is the Postgres run.
  raceSuite('races on PostgreSQL (a pool: transactions really concurrent)', () => ({}), Math.max(10, Math.round(RUNS / 2)));
} else {
  raceSuite('races on SQLite (one connection: transactions serialised)', () => ({}), RUNS);
  if (pgUrl) {
    const schema = `lifeline_races_${process.pid}_${Date.now()}`;
    raceSuite('races on PostgreSQL (a pool: transactions really concurrent)', () => ({
      DATABASE_URL: withSchema(pgUrl, schema),
    }), Math.max(10, Math.round(RUNS / 2)), () => dropSchema(withSchema(pgUrl, schema)));
  } else {
    console.info(`[races] the PostgreSQL run is skipped: ${postgresSkipReason()}`);
  }
}
