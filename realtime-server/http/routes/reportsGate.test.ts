import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ROWS_PER_SLICE, sliceHooks } from '../../../db/repositories/readSlices';
import { EXPORT_BATCH } from '../../../db/repositories/assignmentExportRepository';
import { userRepository } from '../../../db/repositories/userRepository';
import { expectError } from '../../testing/assertions';
import { useTestServer } from '../../testing/testServer';
import { waitFor } from '../../testing/wait';

/**
 * The node's report slots over HTTP (issue 26): a report whose client leaves stops reading and
 * gives its slot back; a full line answers 503, one person's excess 429, both with Retry-After;
 * a slot comes back when a report fails. A report is held between two slices of its read by
 * `sliceHooks` (never by timing), which is how the test keeps one "running".
 */
const s = useTestServer({ env: { REPORT_CONCURRENCY: '1', REPORT_QUEUE: '2', REPORT_PER_USER: '2' } });
/** More rows than a slice and than an export page: every report reaches a second slice. */
const CALLS = Math.max(MAX_ROWS_PER_SLICE, EXPORT_BATCH) + 100;
const PERIOD = 'from=2020-06-01&to=2020-06-03';
const PATHS = ['/api/reports/response-times', '/api/reports/utilisation', '/api/reports/demand', '/api/reports/handover', '/api/reports/assignments.csv'];
const tokens = {} as Record<'operator' | 'admin' | 'third', string>;

beforeAll(async () => {
  const db = s.ctx.db;
  const at = (i: number) => new Date(Date.parse('2020-06-01T00:00:00.000Z') + i * 60_000).toISOString();
  const cases = Array.from({ length: CALLS }, (_, i) => ({
    id: `gate-${String(i).padStart(5, '0')}`, description: 'Gate fixture', status: 'closed', patient_name: 'Fixture', patient_email: 'fixture@example.com',
    created_at: at(i), updated_at: at(i), priority: 1 + (i % 4), call_received_at: at(i),
  }));
  const assignments = cases.map((c, i) => ({
    case_id: c.id, license_plate: 'KA01 G 1', status: 'cleared', dispatched_at: at(i), at_hospital_at: at(i + 20), handover_at: at(i + 25), destination_name: 'Gate General', cleared_at: at(i + 30),
  }));
  for (let i = 0; i < CALLS; i += 500) {
    await db('cases').insert(cases.slice(i, i + 500));
    await db('assignments').insert(assignments.slice(i, i + 500));
  }
  await userRepository.insert(db, { name: 'Third', email: 'third@lifeline.test', phone: '5550199', role: 'operator', shift: 1, gender: 0, location: 'Desk 3', address: null });
  tokens.operator = await s.signIn('operator');
  tokens.admin = await s.signIn('admin');
  tokens.third = await s.signIn({ email: 'third@lifeline.test', username: 'Third', phone: '5550199' });
});

afterEach(() => {
  sliceHooks.afterSlice = undefined;
});

/** A GET that may be abandoned: its answer (status, Retry-After, body) or its abort. */
function get(path: string, token: string, ac = new AbortController()) {
  const answer = fetch(s.url + path, { headers: { authorization: `Bearer ${token}` }, signal: ac.signal }).then(async (r) => {
    const text = await r.text();
    let body: unknown = text;
    try { body = JSON.parse(text); } catch { /* a CSV */ }
    return { status: r.status, retryAfter: r.headers.get('retry-after'), body };
  });
  return { answer, abort: () => ac.abort() };
}

/** Holds every read between its slices until `open()`; `reached` once a read is held. */
function holdReads() {
  let open!: () => void;
  const gate = new Promise<void>((r) => { open = r; });
  const held: { rows: number; signal: AbortSignal | undefined }[] = [];
  sliceHooks.afterSlice = async (rows, signal) => {
    held.push({ rows, signal });
    // A read whose client left goes on at once (and stops there).
    await Promise.race([gate, new Promise<void>((r) => signal?.addEventListener('abort', () => r(), { once: true }))]);
  };
  return { held, open, reached: (n = 1) => waitFor(() => held.length >= n, `${n} read(s) held between slices`) };
}

describe('report slots', () => {
  it.each(PATHS)('%s: a client that leaves stops the read at its next slice and gives the slot back', async (path) => {
    // Before: the read went on to the period's end for nobody (four abandoned year reports cost 26 CPU-seconds).
    const hold = holdReads();
    const req = get(`${path}?${PERIOD}`, tokens.operator);
    await hold.reached();
    expect(s.ctx.reports.stats()).toEqual({ running: 1, waiting: 0 });
    req.abort();
    await expect(req.answer).rejects.toThrow();
    await waitFor(() => s.ctx.reports.stats().running === 0, 'the slot given back');
    // The read went no further than the slice it was in: never held again.
    expect(hold.held).toHaveLength(1);
    expect(hold.held[0].signal?.aborted).toBe(true);
    hold.open();
    // The next report runs to its end.
    sliceHooks.afterSlice = undefined;
    expect((await get(`${path}?${PERIOD}`, tokens.operator).answer).status).toBe(200);
  });

  it('answers 503 with Retry-After when the node\'s line is full, 429 when one person holds their share; the waiting are answered in turn', async () => {
    const hold = holdReads();
    const running = get(`/api/reports/response-times?${PERIOD}`, tokens.operator);
    await hold.reached();
    const queuedMine = get(`/api/reports/assignments.csv?${PERIOD}`, tokens.operator);
    await waitFor(() => s.ctx.reports.stats().waiting === 1, 'the second report waiting');

    // The operator's share (REPORT_PER_USER=2) is taken: one more of theirs is 429, whoever else is waiting.
    const mine = await get(`/api/reports/demand?${PERIOD}`, tokens.operator).answer;
    expect(mine.status).toBe(429);
    expect(Number(mine.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(mine.body).toEqual({ error: 'You already have 2 reports being made or waiting (at most 2); try again when one is done' });

    const queuedAdmin = get(`/api/reports/utilisation?${PERIOD}`, tokens.admin);
    await waitFor(() => s.ctx.reports.stats().waiting === 2, 'the line full');
    // The line (REPORT_CONCURRENCY=1 making, REPORT_QUEUE=2 waiting) is full: anyone else's is 503.
    const full = await get(`/api/reports/demand?${PERIOD}`, tokens.third).answer;
    expect(full.status).toBe(503);
    expect(Number(full.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(full.body).toEqual({ error: 'Reports are busy on this server (1 being made, 2 waiting); try again in a moment' });

    hold.open();
    for (const r of [running, queuedMine, queuedAdmin]) expect((await r.answer).status).toBe(200);
    expect(s.ctx.reports.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('drops a waiting request whose client left: its place is free for the next', async () => {
    const hold = holdReads();
    const running = get(`/api/reports/demand?${PERIOD}`, tokens.operator);
    await hold.reached();
    const a = get(`/api/reports/demand?${PERIOD}`, tokens.admin);
    const b = get(`/api/reports/demand?${PERIOD}`, tokens.admin);
    await waitFor(() => s.ctx.reports.stats().waiting === 2, 'two waiting');
    a.abort();
    b.abort();
    await Promise.allSettled([a.answer, b.answer]);
    await waitFor(() => s.ctx.reports.stats().waiting === 0, 'the abandoned requests out of the line');
    const next = get(`/api/reports/demand?${PERIOD}`, tokens.third);
    await waitFor(() => s.ctx.reports.stats().waiting === 1, 'the next one waiting');
    hold.open();
    expect((await next.answer).status).toBe(200);
    expect((await running.answer).status).toBe(200);
    expect(s.ctx.reports.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('gives the slot back when a report fails', async () => {
    sliceHooks.afterSlice = () => { throw new Error('the disk is on fire'); };
    for (const path of PATHS.slice(0, 3)) expectError(await get(`${path}?${PERIOD}`, tokens.operator).answer, 500, 'Internal server error');
    expect(s.ctx.reports.stats()).toEqual({ running: 0, waiting: 0 });
    sliceHooks.afterSlice = undefined;
    expect((await get(`/api/reports/demand?${PERIOD}`, tokens.operator).answer).status).toBe(200);
  });
});
