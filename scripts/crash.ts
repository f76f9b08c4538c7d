/**
 * The crash loop: runs the real server as a child process under a write load, kill -9s it at
 * random moments, restarts it on the same SQLite file, and after every restart checks that
 * every write the client saw acknowledged is there, `PRAGMA integrity_check` says ok, the
 * invariants hold (realtime-server/reliability/invariants.ts), keyed dispatches that were in
 * doubt at the kill are neither lost nor doubled by their retry, and no e-mail was delivered
 * more often than it was claimed for sending. At the end the outbox is drained and every
 * message must have been delivered (none lost), duplicates only where a send was cut off
 * by a kill (the documented at-least-once window of SMTP; RELIABILITY.md).
 *
 *   npm run test:crash                       50 cycles, then the 3-minute reconnect test
 *   npm run test:crash -- --cycles 200 --seed 42 --no-reconnect
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { openDatabase } from '../db/connection';
import { checkInvariants } from '../realtime-server/reliability/invariants';
import { SMTPServer } from 'smtp-server';
import { ServerProcess } from '../realtime-server/testing/serverProcess';
import { closedPort, parseMessage } from '../realtime-server/testing/smtpListener';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface CrashOptions {
  cycles: number;
  seed?: number;
  /** Concurrent load workers. */
  workers?: number;
  log?: (line: string) => void;
}

export interface CrashFigures {
  seed: number;
  cycles: number;
  kills: number;
  killsDuringStartup: number;
  killsDuringLoad: number;
  requests: number;
  acknowledged: number;
  verified: number;
  inDoubt: number;
  inDoubtDispatchesRetried: number;
  inDoubtFoundCommitted: number;
  integrityChecks: number;
  invariantChecks: number;
  mailsQueued: number;
  mailsDelivered: number;
  mailDuplicates: number;
  mailsInterrupted: number;
  seconds: number;
  violations: string[];
}

/** A small seeded PRNG (mulberry32), so a failing loop can be replayed with --seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)), pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A real SMTP listener that keeps each accepted message's headers. Unlike the test helper it
 * shrugs off connections reset mid-conversation: here the sender is kill -9ed on purpose.
 * A message counts as delivered once its DATA is complete (the moment the server answers 250).
 */
async function startMailCounter() {
  const received: { headers: Record<string, string> }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ headers: parseMessage(Buffer.concat(chunks).toString('utf8')).headers });
        callback();
      });
    },
  });
  server.on('error', () => { /* a sender killed mid-conversation */ });
  const port = await closedPort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Ack =
  | { kind: 'dispatch'; caseId: string; marker: string }
  | { kind: 'status'; caseId: string; status: string; version: number }
  | { kind: 'position'; ambulanceId: number; latitude: number; longitude: number }
  | { kind: 'share'; caseId: string; latitude: number; longitude: number }
  | { kind: 'tracking'; caseId: string };

interface InDoubtDispatch { key: string; body: Record<string, unknown>; marker: string }

export async function runCrashLoop(opts: CrashOptions): Promise<CrashFigures> {
  const started = Date.now();
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  const rnd = prng(seed);
  const log = opts.log ?? ((line: string) => console.log(line));
  const workers = opts.workers ?? 4;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-crash-'));
  const dbPath = path.join(dir, 'crash.sqlite');
  const smtp = await startMailCounter();
  const port = await closedPort();
  const base = `http://127.0.0.1:${port}`;
  const server = new ServerProcess({
    DATABASE_URL: dbPath, PORT: String(port), HOST: '127.0.0.1', SEED: 'demo', SMTP_URL: smtp.url, GEOCODER_URL: 'off',
    PUBLIC_URL: base, STATIC_DIR: path.join(dir, 'web'), LOG_LEVEL: 'warn', LINK_LIMIT_PER_MIN: '1000000', DRAIN_SECONDS: '0',
  }, base);

  const figures: CrashFigures = {
    seed, cycles: 0, kills: 0, killsDuringStartup: 0, killsDuringLoad: 0, requests: 0, acknowledged: 0, verified: 0,
    inDoubt: 0, inDoubtDispatchesRetried: 0, inDoubtFoundCommitted: 0, integrityChecks: 0, invariantChecks: 0,
    mailsQueued: 0, mailsDelivered: 0, mailDuplicates: 0, mailsInterrupted: 0, seconds: 0, violations: [],
  };
  const acks: Ack[] = [];
  let inDoubt: InDoubtDispatch[] = [];
  let token = '';

  async function call(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}) {
    figures.requests += 1;
    const res = await fetch(base + urlPath, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, replayed: res.headers.get('idempotent-replayed') === 'true' };
  }

  const deliveries = () => {
    const counts = new Map<number, number>();
    const messageIds = new Map<number, Set<string>>();
    for (const m of smtp.received) {
      const id = Number(m.headers['x-lifeline-outbox-id']);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      messageIds.set(id, (messageIds.get(id) ?? new Set()).add(m.headers['message-id'] ?? ''));
    }
    return { counts, messageIds };
  };

  /** Everything checked after a restart; problems go to figures.violations. */
  async function verify(final: boolean) {
    const problems: string[] = [];
    const raw = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      const integrity = raw.pragma('integrity_check', { simple: true });
      figures.integrityChecks += 1;
      if (integrity !== 'ok') problems.push(`integrity_check: ${integrity}`);
    } finally {
      raw.close();
    }
    const db = openDatabase(dbPath);
    try {
      const report = await checkInvariants(db);
      figures.invariantChecks += 1;
      problems.push(...report.violations);

      // Every acknowledged write is there.
      const cases = new Map((await db('cases').select('id', 'status', 'version', 'description')).map((c) => [c.id, c]));
      const events = await db('case_events').select('case_id', 'action', 'after');
      const created = new Set(events.filter((e) => e.action === 'created').map((e) => e.case_id));
      const tracking = new Set(events.filter((e) => e.action === 'tracking').map((e) => e.case_id));
      const shared = new Set(events.filter((e) => e.action === 'location').map((e) => {
        const a = JSON.parse(e.after);
        return `${e.case_id}:${a.latitude}:${a.longitude}`;
      }));
      const positions = new Set((await db('ambulance_positions').select('ambulance_id', 'latitude', 'longitude')).map((p) => `${p.ambulance_id}:${p.latitude}:${p.longitude}`));
      const shareMails = new Map<string, number>();
      for (const m of await db('outbox').where({ kind: 'share-location' }).select('case_id')) shareMails.set(m.case_id, (shareMails.get(m.case_id) ?? 0) + 1);
      const lastStatus = new Map<string, Ack & { kind: 'status' }>();
      let verified = 0;
      for (const a of acks) {
        const before = problems.length;
        switch (a.kind) {
          case 'dispatch':
            if (!cases.has(a.caseId)) problems.push(`acknowledged dispatch ${a.caseId} is missing`);
            if (!created.has(a.caseId)) problems.push(`acknowledged dispatch ${a.caseId} has no 'created' entry`);
            if (shareMails.get(a.caseId) !== 1) problems.push(`acknowledged dispatch ${a.caseId} has ${shareMails.get(a.caseId) ?? 0} share-location e-mails`);
            break;
          case 'status': {
            const row = cases.get(a.caseId);
            if (!row || Number(row.version) < a.version) problems.push(`acknowledged ${a.status} of ${a.caseId} (version ${a.version}) is missing`);
            if (!lastStatus.has(a.caseId) || lastStatus.get(a.caseId)!.version < a.version) lastStatus.set(a.caseId, a);
            break;
          }
          case 'position':
            if (!positions.has(`${a.ambulanceId}:${a.latitude}:${a.longitude}`)) problems.push(`acknowledged position of ambulance ${a.ambulanceId} is missing`);
            break;
          case 'share':
            if (!shared.has(`${a.caseId}:${a.latitude}:${a.longitude}`)) problems.push(`acknowledged location share of ${a.caseId} is missing`);
            break;
          case 'tracking':
            if (!tracking.has(a.caseId)) problems.push(`acknowledged tracking of ${a.caseId} is missing`);
            break;
        }
        if (problems.length === before) verified += 1;
      }
      for (const a of lastStatus.values()) {
        const row = cases.get(a.caseId);
        if (row && Number(row.version) === a.version && row.status !== a.status) problems.push(`case ${a.caseId} at version ${a.version} is ${row.status}, acknowledged as ${a.status}`);
      }
      figures.verified = verified;

      // E-mail: never delivered more often than claimed for sending; at the end, every one delivered.
      const outbox = await db('outbox').select('id', 'status', 'attempts');
      const { counts: delivered, messageIds } = deliveries();
      const ids = new Set(outbox.map((m) => Number(m.id)));
      for (const id of delivered.keys()) if (!ids.has(id)) problems.push(`a mail with unknown outbox id ${id} was delivered`);
      let duplicates = 0;
      let interrupted = 0;
      for (const m of outbox) {
        const n = delivered.get(Number(m.id)) ?? 0;
        if (n > Number(m.attempts)) problems.push(`outbox ${m.id} was delivered ${n} times but claimed ${m.attempts} times`);
        if (n > 1) duplicates += n - 1;
        // A copy sent again is recognisably the same message (receivers dedupe by Message-ID).
        if (n > 1 && messageIds.get(Number(m.id))!.size !== 1) problems.push(`outbox ${m.id} was delivered with ${messageIds.get(Number(m.id))!.size} different Message-IDs`);
        if (Number(m.attempts) > 1) interrupted += 1;
        if (final) {
          if (m.status !== 'sent') problems.push(`outbox ${m.id} is ${m.status} after the drain`);
          if (n === 0) problems.push(`outbox ${m.id} was never delivered`);
          if (n > 1 && Number(m.attempts) < 2) problems.push(`outbox ${m.id} was delivered ${n} times without an interrupted send`);
        }
      }
      figures.mailsQueued = outbox.length;
      figures.mailsDelivered = smtp.received.length;
      figures.mailDuplicates = duplicates;
      figures.mailsInterrupted = interrupted;
    } finally {
      await db.destroy();
    }
    figures.violations.push(...problems);
    if (problems.length) log(`[crash] cycle ${figures.cycles}: ${problems.length} problem(s):\n  ${problems.slice(0, 20).join('\n  ')}`);
  }

  /** The patient location links' tokens, from the dispatch answers (the only place they are given), by case id. */
  const locationTokens = new Map<string, string>();
  const rememberLink = (body: { caseId?: string; locationLink?: string }) => {
    if (body?.caseId && body.locationLink) locationTokens.set(body.caseId, new URL(body.locationLink).searchParams.get('t') ?? '');
  };

  /** Dispatches whose answer was lost in the kill are retried with their key: never doubled, never lost. */
  async function retryInDoubt() {
    const db = openDatabase(dbPath);
    const pending = inDoubt;
    inDoubt = [];
    try {
      for (const d of pending) {
        const existing = await db('cases').where({ description: d.marker }).pluck('id');
        const res = await call('POST', '/live-location', d.body, { 'Idempotency-Key': d.key });
        figures.inDoubtDispatchesRetried += 1;
        const after = await db('cases').where({ description: d.marker }).pluck('id');
        if (existing.length > 1 || after.length > 1) figures.violations.push(`dispatch ${d.key} was written ${after.length} times`);
        if (existing.length === 1) {
          figures.inDoubtFoundCommitted += 1;
          if (res.status !== 201 || !res.replayed || res.body.caseId !== existing[0]) {
            figures.violations.push(`dispatch ${d.key} committed before the kill, but its retry answered ${res.status} ${JSON.stringify(res.body)}`);
          }
        } else if (res.status === 201 ? after.length !== 1 : after.length !== 0) {
          figures.violations.push(`dispatch ${d.key} retried: ${res.status} with ${after.length} cases`);
        }
        if (res.status === 201) {
          acks.push({ kind: 'dispatch', caseId: res.body.caseId, marker: d.marker });
          figures.acknowledged += 1;
          rememberLink(res.body);
        }
      }
    } finally {
      await db.destroy();
    }
  }

  /** The write load: dispatches, closes, positions, location shares and tracking links, until `stop`. */
  async function runLoad(stop: { stopped: boolean }) {
    let cases: any[];
    let ambulances: any[];
    try {
      cases = (await call('GET', '/api/cases')).body.cases;
      ambulances = (await call('GET', '/api/ambulances')).body.ambulances;
    } catch {
      return; // killed before the load began
    }
    const active = new Map<string, number | null>(cases.filter((c) => c.status === 'active').map((c) => [c.id, c.ambulance_id]));
    const free = new Set<number>(ambulances.filter((a) => a.status === 'available').map((a) => a.id));
    const fleet = ambulances.map((a) => a.id as number);

    async function one() {
      const roll = rnd.next();
      const activeIds = [...active.keys()];
      if (roll < 0.2 || activeIds.length === 0) {
        const key = randomUUID();
        const marker = `crash-load ${key}`;
        const amb = free.size && rnd.next() < 0.7 ? rnd.pick([...free]) : undefined;
        if (amb !== undefined) free.delete(amb);
        const body = { to: 'patient@example.com', status: 'active', patientName: 'Crash Patient', description: marker, caseType: 'Hospitalization', ...(amb ? { license_plate: amb } : {}) };
        try {
          const res = await call('POST', '/live-location', body, { 'Idempotency-Key': key });
          if (res.status === 201) {
            acks.push({ kind: 'dispatch', caseId: res.body.caseId, marker });
            figures.acknowledged += 1;
            active.set(res.body.caseId, amb ?? null);
            rememberLink(res.body);
          }
        } catch (err) {
          inDoubt.push({ key, body, marker });
          throw err;
        }
      } else if (roll < 0.35) {
        const id = rnd.pick(activeIds);
        const status = rnd.pick(['closed', 'resolved']);
        active.delete(id);
        const res = await call('PUT', `/api/cases/${id}`, { status });
        if (res.status === 200) {
          acks.push({ kind: 'status', caseId: id, status, version: res.body.case.version });
          figures.acknowledged += 1;
          if (res.body.case.ambulance_id) free.add(res.body.case.ambulance_id);
        }
      } else if (roll < 0.7) {
        const ambulanceId = rnd.pick(fleet);
        const latitude = 17.3 + rnd.next() / 5;
        const longitude = 78.4 + rnd.next() / 5;
        const res = await call('POST', `/api/ambulances/${ambulanceId}/position`, { latitude, longitude, accuracy: 8 });
        if (res.status === 200) {
          acks.push({ kind: 'position', ambulanceId, latitude, longitude });
          figures.acknowledged += 1;
        }
      } else if (roll < 0.95) {
        const shareable = activeIds.filter((id) => locationTokens.has(id));
        if (!shareable.length) return;
        const id = rnd.pick(shareable);
        const res = await call('POST', `/api/location/${id}?t=${locationTokens.get(id)}`, { latitude: 17.3 + rnd.next() / 5, longitude: 78.4 + rnd.next() / 5, accuracy: 15 });
        if (res.status === 200) {
          acks.push({ kind: 'share', caseId: id, latitude: res.body.latitude, longitude: res.body.longitude });
          figures.acknowledged += 1;
        }
      } else {
        const withAmbulance = activeIds.filter((id) => active.get(id));
        if (!withAmbulance.length) return;
        const id = rnd.pick(withAmbulance);
        const res = await call('POST', '/api/tracking/initiate', { caseId: id, ambulanceId: active.get(id) });
        if (res.status === 200) {
          acks.push({ kind: 'tracking', caseId: id });
          figures.acknowledged += 1;
        }
      }
    }

    await Promise.all(Array.from({ length: workers }, async () => {
      while (!stop.stopped) {
        try {
          await one();
          // A paced load: the SMTP listener (like real ones) takes ~0.1 s a message, so the
          // outbox can keep up with the e-mails the dispatches and tracking links queue.
          await sleep(rnd.int(5, 40));
        } catch {
          // The server is gone (killed): whatever was in flight is in doubt.
          figures.inDoubt += 1;
          return;
        }
      }
    }));
  }

  try {
    log(`[crash] ${opts.cycles} cycles, seed ${seed}, database ${dbPath}`);
    for (let cycle = 1; cycle <= opts.cycles; cycle++) {
      figures.cycles = cycle;
      server.start();
      // Now and then the kill comes while the server boots (migrations, outbox requeue, listen).
      if (cycle > 1 && rnd.next() < 0.15) {
        await sleep(rnd.int(100, 1500));
        await server.kill9();
        figures.kills += 1;
        figures.killsDuringStartup += 1;
        continue;
      }
      await server.waitHealthy();
      if (!token) {
        const res = await call('POST', '/api/auth/signin', { email: 'operator@lifeline.test', username: 'Operator', phone: '5550101' });
        if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
        token = res.body.token;
      }
      await verify(false);
      await retryInDoubt();
      const stop = { stopped: false };
      const load = runLoad(stop);
      await sleep(rnd.int(150, 1500));
      await server.kill9();
      stop.stopped = true;
      figures.kills += 1;
      figures.killsDuringLoad += 1;
      await load;
      if (cycle % 10 === 0 || cycle === opts.cycles) {
        log(`[crash] cycle ${cycle}: ${figures.acknowledged} writes acknowledged, ${figures.verified} verified, ${figures.inDoubt} in doubt, ${smtp.received.length} mails delivered`);
      }
    }

    // The last restart: verify, retry what is in doubt, let the outbox drain, verify the mail.
    server.start();
    await server.waitHealthy();
    await retryInDoubt();
    const db = openDatabase(dbPath);
    try {
      // Drains as long as it progresses (the listener takes ~0.1 s a message), at most 10 minutes.
      const waiting = async () => Number((await db('outbox').whereIn('status', ['queued', 'sending']).count({ n: '*' }).first())?.n);
      const deadline = Date.now() + 600_000;
      let left = await waiting();
      let progressed = Date.now();
      if (left > 0) log(`[crash] draining the outbox: ${left} messages`);
      while (left > 0 && Date.now() < deadline && Date.now() - progressed < 20_000) {
        await sleep(200);
        const now = await waiting();
        if (now < left) progressed = Date.now();
        left = now;
      }
    } finally {
      await db.destroy();
    }
    await sleep(300); // a delivery still on the wire lands
    await verify(true);
    await server.stop();
  } finally {
    await server.kill9().catch(() => {});
    await smtp.close();
    if (!figures.violations.length) fs.rmSync(dir, { recursive: true, force: true });
    else log(`[crash] the database is kept for inspection: ${dbPath}`);
  }
  figures.seconds = Math.round((Date.now() - started) / 100) / 10;
  log(`[crash] ${figures.cycles} cycles, ${figures.kills} kill -9 (${figures.killsDuringLoad} under load, ${figures.killsDuringStartup} during startup), ` +
    `${figures.requests} requests, ${figures.acknowledged} writes acknowledged, ${figures.verified} verified after the last restart, ` +
    `${figures.inDoubt} in doubt at a kill (${figures.inDoubtDispatchesRetried} keyed dispatches retried, ${figures.inDoubtFoundCommitted} of them had committed and were replayed), ` +
    `${figures.integrityChecks} integrity checks, ${figures.invariantChecks} invariant checks, ` +
    `${figures.mailsQueued} mails queued, ${figures.mailsDelivered} delivered (${figures.mailDuplicates} duplicate deliveries, ${figures.mailsInterrupted} sends interrupted by a kill), ` +
    `${figures.violations.length} violations, ${figures.seconds} s, seed ${seed}`);
  return figures;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  if (process.argv.includes('--help')) {
    console.log('Usage: npm run test:crash [-- --cycles 50] [--seed N] [--workers 4] [--no-reconnect]');
    return;
  }
  const figures = await runCrashLoop({ cycles: Number(arg('cycles') ?? 50), seed: arg('seed') ? Number(arg('seed')) : undefined, workers: arg('workers') ? Number(arg('workers')) : undefined });
  let failed = figures.violations.length > 0;
  if (!process.argv.includes('--no-reconnect')) {
    // The long reconnect case (3 minutes offline) is a timed wait: it runs here, not in npm test.
    console.log('[crash] the 3-minute reconnect test (LONG_TESTS=1) ...');
    const vitest = spawn(path.join(root, 'node_modules', '.bin', 'vitest'), ['run', 'web/src/realtime/liveCache.test.ts', '-t', '3 minutes'], {
      cwd: root, stdio: 'inherit', env: { ...process.env, LONG_TESTS: '1' },
    });
    const code = await new Promise<number>((resolve) => vitest.once('exit', (c) => resolve(c ?? 1)));
    if (code !== 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
