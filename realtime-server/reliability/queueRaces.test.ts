import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { type ApiResult, useTestServer } from '../testing/testServer';
import { checkInvariants } from './invariants';

/**
 * A busy shift in random interleavings (issue 25): a few calls of mixed priorities on a fleet of
 * three, some waiting, then concurrent batches of dispatchers taking free units for waiting calls
 * (POST /api/cases/{id}/dispatch), diverting units from other calls, crews stepping their units on
 * and calls being requeued, closed or reopened. After each run: the invariants of
 * reliability/invariants.ts (one unit, one open assignment, one active holder; timelines replay),
 * no 5xx, and every diversion answered 200 recorded exactly once on the requeued call's timeline.
 * On SQLite, or on PostgreSQL (transactions really concurrent) with TEST_ENGINE=postgres.
 *
 * QUEUE_RACES_RUNS=300 npx vitest run realtime-server/reliability/queueRaces.test.ts
 */
const RUNS = Number(process.env.QUEUE_RACES_RUNS ?? 60);
const FLEET = 3;

type Op =
  | { kind: 'take'; c: number; amb: number }
  | { kind: 'divert'; c: number; from: number }
  | { kind: 'step'; amb: number; status: 'en_route' | 'on_scene' | 'cleared' }
  | { kind: 'status'; c: number; status: 'pending' | 'closed' | 'active' };

const call = fc.record({ priority: fc.integer({ min: 1, max: 4 }), unit: fc.option(fc.nat({ max: FLEET - 1 }), { freq: 3 }) });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('take' as const), c: fc.nat(), amb: fc.nat({ max: FLEET - 1 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('divert' as const), c: fc.nat(), from: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('step' as const), amb: fc.nat({ max: FLEET - 1 }), status: fc.constantFrom('en_route' as const, 'on_scene' as const, 'cleared' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('status' as const), c: fc.nat(), status: fc.constantFrom('pending' as const, 'closed' as const, 'active' as const) }) },
);
interface Shift { calls: { priority: number; unit: number | null }[]; batches: Op[][] }
const runArb: fc.Arbitrary<Shift> = fc.record({
  calls: fc.array(call, { minLength: 3, maxLength: 6 }),
  batches: fc.array(fc.array(opArb, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
});

const ALLOWED: Record<Op['kind'], number[]> = { take: [200, 409, 422], divert: [200, 400, 409, 422], step: [200, 404, 409], status: [200, 409] };
const figures = { runs: 0, requests: 0, taken: 0, diverted: 0, statuses: {} as Record<string, number> };

describe('a busy shift: dispatching from the queue and diverting units under concurrency', () => {
  const s = useTestServer({ env: { LINK_LIMIT_PER_MIN: '1000000', SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000' } });
  let operator = '';
  beforeAll(async () => { operator = await s.signIn('operator'); });

  async function reset(): Promise<number[]> {
    await s.ctx.db.transaction(async (trx) => {
      for (const t of ['track_tokens', 'ambulance_positions', 'outbox', 'case_events', 'idempotency_keys', 'assignments', 'cases', 'ambulances']) await trx(t).delete();
      for (let i = 0; i < FLEET; i++) await ambulanceRepository.insert(trx, { license_plate: `SHIFT ${figures.runs}-${i}`, status: 'available', latitude: 17.4, longitude: 78.5 });
    });
    return (await s.ctx.db('ambulances').orderBy('id').pluck('id')).map(Number);
  }

  /** The calls as they are when a request leaves (they may change before it runs: that is the race). */
  const waitingCalls = (): Promise<string[]> => s.ctx.db('cases')
    .where((q) => q.where('status', 'pending').orWhere((a) => a.where('status', 'active').whereNull('ambulance_id'))).orderBy('id').pluck('id');
  const holdingCalls = (): Promise<{ id: string; ambulance_id: number }[]> =>
    s.ctx.db('cases').where('status', 'active').whereNotNull('ambulance_id').orderBy('id').select('id', 'ambulance_id');

  async function send(op: Op, fleet: number[], calls: string[]): Promise<{ op: Op; res: ApiResult }> {
    const api = (method: string, path: string, body: unknown) => s.api(method, path, { token: operator, body });
    switch (op.kind) {
      case 'take': {
        const waiting = await waitingCalls();
        const target = waiting.length ? waiting[op.c % waiting.length] : calls[op.c % calls.length];
        return { op, res: await api('POST', `/api/cases/${target}/dispatch`, { ambulance_id: fleet[op.amb] }) };
      }
      case 'divert': {
        const waiting = await waitingCalls();
        const target = waiting.length ? waiting[op.c % waiting.length] : calls[op.c % calls.length];
        const holding = (await holdingCalls()).filter((h) => h.id !== target);
        const from = holding.length ? holding[op.from % holding.length] : { id: calls[op.from % calls.length], ambulance_id: fleet[0] };
        return { op, res: await api('POST', `/api/cases/${target}/dispatch`, { ambulance_id: Number(from.ambulance_id), take_from_case_id: from.id }) };
      }
      case 'step':
        return { op, res: await api('POST', `/api/ambulances/${fleet[op.amb]}/unit-status`, { status: op.status }) };
      case 'status':
        return { op, res: await api('PUT', `/api/cases/${calls[op.c % calls.length]}`, { status: op.status }) };
    }
  }

  async function run({ calls: plan, batches }: Shift) {
    const fleet = await reset();
    const calls: string[] = [];
    for (const c of plan) {
      const withUnit = { to: 'shift@example.com', patientName: 'Shift Patient', description: 'Busy shift', priority: c.priority, status: 'active', ambulance_id: c.unit === null ? undefined : fleet[c.unit] };
      let res = await s.api('POST', '/api/cases', { token: operator, body: c.unit === null ? { ...withUnit, status: 'pending' } : withUnit });
      if (res.status === 409) res = await s.api('POST', '/api/cases', { token: operator, body: { ...withUnit, ambulance_id: undefined, status: 'pending' } });
      expect(res.status).toBe(201);
      calls.push(res.body.case.id);
    }
    const log: { op: Op; res: ApiResult }[] = [];
    for (const batch of batches) log.push(...(await Promise.all(batch.map((op) => send(op, fleet, calls)))));

    const problems: string[] = [];
    for (const l of log) {
      figures.requests += 1;
      figures.statuses[l.res.status] = (figures.statuses[l.res.status] ?? 0) + 1;
      if (!ALLOWED[l.op.kind].includes(l.res.status)) problems.push(`${l.op.kind} answered ${l.res.status} ${JSON.stringify(l.res.body)}`);
      if (l.res.status !== 200) continue;
      if (l.op.kind === 'take') figures.taken += 1;
      if (l.op.kind === 'divert') figures.diverted += 1;
    }
    // Each diversion answered 200 is on the requeued call's timeline exactly once, naming the call that took the unit.
    const diversions = log.filter((l) => l.op.kind === 'divert' && l.res.status === 200).map((l) => `${l.res.body.requeued.id}→${l.res.body.case.id}`).sort();
    const recorded = (await s.ctx.db('case_events').where({ action: 'updated' }).select('case_id', 'after'))
      .filter((e: { after: string | null }) => e.after?.includes('diverted_to'))
      .map((e: { case_id: string; after: string }) => `${e.case_id}→${JSON.parse(e.after).diverted_to}`).sort();
    if (JSON.stringify(recorded) !== JSON.stringify(diversions)) problems.push(`diversions answered ${JSON.stringify(diversions)} but recorded ${JSON.stringify(recorded)}`);
    problems.push(...(await checkInvariants(s.ctx.db)).violations);
    figures.runs += 1;
    if (problems.length) throw new Error(`after ${log.length} requests:\n  ${problems.join('\n  ')}`);
  }

  it(`keeps every invariant over ${RUNS} random shifts`, async () => {
    const started = Date.now();
    await fc.assert(fc.asyncProperty(runArb, run), { numRuns: RUNS, endOnFailure: false });
    console.info(`[queue races] ${s.engine}: ${figures.runs} runs, ${figures.requests} requests (${Object.entries(figures.statuses).map(([k, v]) => `${k}: ${v}`).join(', ')}), ` +
      `${figures.taken} free units taken, ${figures.diverted} units diverted, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The generator reaches the paths under test, not only their refusals.
    expect(figures.taken).toBeGreaterThan(0);
    expect(figures.diverted).toBeGreaterThan(0);
  }, 300_000);
});
