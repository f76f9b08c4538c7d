/**
 * The load generator: a child process of run.ts driving socket.io-client sockets and plain
 * HTTP against a real server. It obeys commands over IPC and answers with raw figures;
 * run.ts adds them up across processes. Latency is measured on this machine's one clock:
 * a driver sends `timestamp` = Date.now(), the server stores it as the fix's `recorded_at`,
 * and whoever receives that position subtracts it from its own Date.now().
 */
import { io, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { request } from './http';
import { pool } from './fixtures';
import { type LiteSocket, connectLite } from './liteSocket';

export type Cmd =
  | {
    cmd: 'connect'; url: string; kind?: 'lifeline' | 'sio' | 'ws';
    /** The listeners' client: the lite one (default) or socket.io-client. */
    client?: 'lite' | 'socketio';
    /** --nodes N: the nodes' URLs; a client's `node` picks one (default `url`). */
    urls?: string[];
    viewers: { ambId: number; token: string; node?: number }[]; staff: { count: number; token: string; nodes?: number[] }; drivers: { ambId: number; token: string; node?: number }[]; width: number;
  }
  | { cmd: 'reset'; since: number }
  | { cmd: 'drive'; rateHz: number; durationMs: number }
  | { cmd: 'ingest'; path: 'socket' | 'rest'; url: string; links: { id: number; driverToken: string }[]; rate: number; durationMs: number }
  | { cmd: 'poll'; url: string; targets: { ambId: number; token: string }[]; intervalMs: number; durationMs: number }
  | { cmd: 'dispatch'; url: string; token: string; dispatchers: number; durationMs: number }
  | { cmd: 'report' }
  | { cmd: 'close' };

/** The server's acknowledgement of a driver's position (none when it timed out). */
interface PositionAck { ok: boolean; latest?: boolean; error?: string }
type AckFn = (err: Error | null, r: PositionAck | undefined) => void;
/** What drive() and ingest() need of a driver's connection (a Socket.IO socket, or the raw-ws shim). */
interface DriverConn { timeout(ms: number): DriverConn; emit(ev: string, payload: unknown, ack: AckFn): unknown }
/** What viewers and staff boards need of a client socket: each listener types the payload its event carries. */
interface Listening { on(ev: string, fn: (msg: never) => void): unknown }
/** A client socket of either kind, as `connect` hands it to a driver, viewer or staff board. */
type ClientSocket = DriverConn & Listening & { connected: boolean };
const sockets: { close(): unknown }[] = [];
/** The viewer sockets, to count those still connected at the report ("viewers held"). */
const viewerSockets: { connected: boolean }[] = [];
const drivers: { ambId: number; socket: DriverConn }[] = [];
let since = Infinity;

// What the viewers and staff boards heard since `reset`.
const viewerLat: number[] = [];
const staffLat: number[] = [];
const caseLat: number[] = [];
const received = new Map<number, number>(); // ambulance -> viewer deliveries
const receivedByNode = new Map<string, number>(); // "ambulance:node" -> viewer deliveries (--nodes)
let outOfOrder = 0;
let duplicates = 0;
let viewerMessages = 0;
let staffMessages = 0;
let staffPositions = 0;
let disconnects = 0;

/**
 * The raw `ws` floor's client: frames are `{"e":event,"d":data}` from the server, `{"id":n,"d":position}`
 * from a driver and `{"a":n,"d":ack}` back; handlers are the same as for Socket.IO.
 */
function connectWs(url: string, query: Record<string, string>, onSocket: (s: ClientSocket) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/?${new URLSearchParams(query).toString()}`);
    const handlers = new Map<string, (d: unknown) => void>();
    const acks = new Map<number, AckFn>();
    let nextId = 0;
    const shim = {
      // Like Socket.IO's client, the listener states the payload type its event carries.
      on: (ev: string, fn: (d: never) => void) => { handlers.set(ev, fn as (d: unknown) => void); return shim; },
      timeout: () => shim,
      emit: (_ev: string, payload: unknown, ack: AckFn) => {
        const id = nextId++;
        acks.set(id, ack);
        ws.send(JSON.stringify({ id, d: payload }));
      },
      close: () => ws.close(),
      get connected() { return ws.readyState === WebSocket.OPEN; },
    };
    ws.on('message', (data) => {
      // The floor sends text frames, which `ws` hands over as a Buffer (its default binaryType).
      const m = JSON.parse((data as Buffer).toString('utf8')) as { a: number; d: PositionAck } | { a?: undefined; e: string; d: unknown };
      if (m.a !== undefined) { acks.get(m.a)?.(null, m.d); acks.delete(m.a); } else handlers.get(m.e)?.(m.d);
    });
    onSocket(shim);
    ws.once('open', () => { sockets.push(shim); resolve(true); });
    ws.once('error', () => resolve(false));
    ws.on('close', () => { disconnects++; });
  });
}

function connectOne(url: string, auth: Record<string, string>, onSocket: (s: Socket) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const s = io(url, { transports: ['websocket'], auth, forceNew: true, reconnection: false, timeout: 60_000 });
    onSocket(s);
    s.once('connect', () => { sockets.push(s); resolve(true); });
    s.once('connect_error', () => { s.close(); resolve(false); });
    s.on('disconnect', (reason) => { if (reason !== 'io client disconnect') disconnects++; });
  });
}

function viewer(s: Listening & { connected: boolean }, node = 0) {
  viewerSockets.push(s);
  const last = new Map<number, number>();
  const heard = (msg: { positions: { ambulanceId: number; recorded_at: string }[] }) => {
    const now = Date.now();
    viewerMessages++;
    for (const p of msg.positions) {
      const ts = Date.parse(p.recorded_at);
      if (ts < since) continue;
      viewerLat.push(now - ts);
      received.set(p.ambulanceId, (received.get(p.ambulanceId) ?? 0) + 1);
      const k = `${p.ambulanceId}:${node}`;
      receivedByNode.set(k, (receivedByNode.get(k) ?? 0) + 1);
      const prev = last.get(p.ambulanceId) ?? -Infinity;
      if (ts < prev) outOfOrder++;
      else if (ts === prev) duplicates++;
      last.set(p.ambulanceId, Math.max(ts, prev));
    }
  };
  s.on('track.position', heard);
  // A server before issue 26 (a --compare base) sent a link's positions as `ambulance.position`; a server sends one or the other.
  s.on('ambulance.position', heard);
}

/** One staff board in STAFF_TIMED has its positions timed; the others count them (see staffBoard). */
const STAFF_TIMED = 10;
const BENCH_CASE = /"patientName":"Bench Case (\d+)"/;

/** A bench case heard by a board: the dispatcher wrote its send time into the name ("Bench Case <ms>"). */
function caseHeard(match: RegExpExecArray | null) {
  if (match && Number(match[1]) >= since) caseLat.push(Date.now() - Number(match[1]));
}

/** How many times `needle` stands in `text`. */
function occurrences(text: string, needle: string) {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/**
 * A staff board. Each hears every position of the fleet once a second (a 200-position batch in
 * the full profile): parsing every batch on 500 boards was the largest part of the generator's
 * own work in its profile, so with the lite client one board in STAFF_TIMED parses and times its positions (still
 * tens of thousands of samples a phase) and the others count them in the text. Every board times
 * each bench case, read from the text.
 */
function staffBoard(s: Listening, index: number) {
  if (isLite(s)) {
    s.onText('case.created', (text) => caseHeard(BENCH_CASE.exec(text)));
    if (index % STAFF_TIMED !== 0) {
      s.onText('ambulance.position', (text) => {
        staffMessages++;
        if (Date.now() >= since) staffPositions += occurrences(text, '"recorded_at"');
      });
      return;
    }
  } else {
    s.on('case.created', (c: { patientName: string }) => caseHeard(/^Bench Case (\d+)$/.exec(c.patientName)));
  }
  s.on('ambulance.position', (msg: { positions: { recorded_at: string }[] }) => {
    const now = Date.now();
    staffMessages++;
    for (const p of msg.positions) {
      const ts = Date.parse(p.recorded_at);
      if (ts < since) continue;
      staffLat.push(now - ts);
      staffPositions++;
    }
  });
}

const isLite = (s: Listening): s is LiteSocket => 'onText' in s;

const position = (ambId: number, ts: number) => ({ latitude: 17.385 + ((ambId * 37 + ts) % 1000) * 1e-5, longitude: 78.4867 + (ambId % 100) * 1e-4, accuracy: 5, timestamp: ts });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Fleet movement: every driver sends `rateHz` positions a second, their phases spread over the period. */
async function drive(rateHz: number, durationMs: number) {
  const period = 1000 / rateHz;
  const acked = new Map<number, number[]>(); // ambulance -> timestamps acked as latest
  const ackLat: number[] = [];
  let sent = 0, ok = 0, notLatest = 0, failed = 0;
  const errors = new Map<string, number>();
  const end = Date.now() + durationMs;
  const pending: Promise<void>[] = [];
  await Promise.all(drivers.map(async (d, i) => {
    await sleep((i / drivers.length) * period);
    let lastTs = 0;
    while (Date.now() < end) {
      const t0 = Date.now();
      const ts = Math.max(t0, lastTs + 1);
      lastTs = ts;
      sent++;
      pending.push(new Promise<void>((resolve) => {
        d.socket.timeout(10_000).emit('ambulance.position', position(d.ambId, ts), (err: Error | null, r: PositionAck | undefined) => {
          ackLat.push(Date.now() - t0);
          if (err || !r?.ok) {
            failed++;
            const why = err ? 'ack timeout' : String(r?.error);
            errors.set(why, (errors.get(why) ?? 0) + 1);
          } else if (r.latest) {
            ok++;
            const list = acked.get(d.ambId) ?? [];
            list.push(ts);
            acked.set(d.ambId, list);
          } else notLatest++;
          resolve();
        });
      }));
      const next = t0 + period - Date.now();
      if (next > 0) await sleep(next);
    }
  }));
  await Promise.all(pending);
  return { sent, ok, notLatest, failed, errors: Object.fromEntries(errors), ackLat, acked: Object.fromEntries(acked) };
}

/** Open-loop position load at `rate` a second spread over the ambulances, for `durationMs`. */
async function ingest(c: Extract<Cmd, { cmd: 'ingest' }>) {
  const lat: number[] = [];
  let sent = 0, ok = 0, failed = 0, skipped = 0, inflight = 0;
  const errors = new Map<string, number>();
  const MAX_INFLIGHT = 20_000;
  const t0 = Date.now();
  const end = t0 + c.durationMs;
  let due = 0;
  let rr = 0;
  const done = (start: number, good: boolean, why?: string) => {
    inflight--;
    lat.push(Date.now() - start);
    if (good) ok++;
    else { failed++; errors.set(why ?? '?', (errors.get(why ?? '?') ?? 0) + 1); }
  };
  const sendOne = () => {
    const start = Date.now();
    sent++;
    inflight++;
    if (c.path === 'socket') {
      const d = drivers[rr++ % drivers.length];
      d.socket.timeout(30_000).emit('ambulance.position', position(d.ambId, start), (err: Error | null, r: PositionAck | undefined) =>
        done(start, !err && !!r?.ok, err ? 'ack timeout' : r?.error));
    } else {
      const { id, driverToken } = c.links[rr++ % c.links.length];
      request<PositionAck | undefined>(c.url, 'POST', `/api/ambulances/${id}/position?t=${driverToken}`, { body: position(id, start) }).then(
        (r) => done(start, r.status === 200 && !!r.body?.ok, `${r.status} ${r.body?.error ?? ''}`),
        (e: NodeJS.ErrnoException) => done(start, false, String(e.code ?? e.message)),
      );
    }
  };
  while (Date.now() < end) {
    const elapsed = Date.now() - t0;
    const target = Math.floor((elapsed / 1000) * c.rate);
    for (; due < target; due++) {
      if (inflight >= MAX_INFLIGHT) { skipped++; continue; }
      sendOne();
    }
    await sleep(2);
  }
  const sendEnd = Date.now();
  const deadline = Date.now() + 30_000;
  while (inflight > 0 && Date.now() < deadline) await sleep(5);
  return { sent, ok, failed, skipped, lat, errors: Object.fromEntries(errors), sendSeconds: (sendEnd - t0) / 1000, drainSeconds: (Date.now() - t0) / 1000 };
}

/** The specification's polling: each target's tracking page asks `GET /api/track/{id}` every `intervalMs`. */
async function poll(c: Extract<Cmd, { cmd: 'poll' }>) {
  const seen: { ambId: number; at: number; updatedMs: number }[] = [];
  const reqLat: number[] = [];
  const end = Date.now() + c.durationMs;
  await Promise.all(c.targets.map(async (t, i) => {
    await sleep((i / c.targets.length) * c.intervalMs);
    while (Date.now() < end) {
      const t0 = Date.now();
      const r = await request<{ updated_at?: string | null }>(c.url, 'GET', `/api/track/${t.ambId}?t=${t.token}`).catch(() => undefined);
      const now = Date.now();
      reqLat.push(now - t0);
      if (r?.status === 200 && r.body.updated_at) seen.push({ ambId: t.ambId, at: now, updatedMs: Date.parse(r.body.updated_at) });
      await sleep(Math.max(0, t0 + c.intervalMs - Date.now()));
    }
  }));
  return { seen, reqLat, end };
}

/** Dispatchers creating a case, then closing it, in a loop. */
async function dispatch(c: Extract<Cmd, { cmd: 'dispatch' }>) {
  let created = 0, closed = 0, failed = 0;
  const lat: number[] = [];
  const end = Date.now() + c.durationMs;
  await Promise.all(Array.from({ length: c.dispatchers }, async () => {
    while (Date.now() < end) {
      const t0 = Date.now();
      const body = { to: 'bench-patient@example.com', status: 'active', patientName: `Bench Case ${t0}`, description: 'Heart Attack', caseType: 'Hospitalization' };
      const r = await request<{ case?: { id: string } } | undefined>(c.url, 'POST', '/api/cases', { token: c.token, body }).catch(() => undefined);
      lat.push(Date.now() - t0);
      const id = r?.body?.case?.id;
      if ((r?.status === 201 || r?.status === 200) && id) {
        created++;
        const u = await request(c.url, 'PUT', `/api/cases/${id}`, { token: c.token, body: { status: 'closed' } }).catch(() => undefined);
        if (u?.status === 200) closed++;
        else failed++;
      } else failed++;
      await sleep(200);
    }
  }));
  return { created, closed, failed, lat };
}

/** What the viewers and staff boards heard since `reset`, and this process's memory. */
function report() {
  return {
    viewerLat, staffLat, caseLat, received: Object.fromEntries(received), receivedByNode: Object.fromEntries(receivedByNode),
    viewersHeld: viewerSockets.filter((s) => s.connected).length, outOfOrder, duplicates,
    viewerMessages, staffMessages, staffPositions, disconnects, rssMb: process.memoryUsage().rss / 2 ** 20,
  };
}

/** What each command answers over IPC (run.ts reads these). */
export interface Answers {
  connect: { connected: number; failed: number; ms: number };
  reset: { ok: true };
  drive: Awaited<ReturnType<typeof drive>>;
  ingest: Awaited<ReturnType<typeof ingest>>;
  poll: Awaited<ReturnType<typeof poll>>;
  dispatch: Awaited<ReturnType<typeof dispatch>>;
  report: ReturnType<typeof report>;
  close: { ok: true };
}

async function handle(c: Cmd): Promise<Answers[Cmd['cmd']]> {
  switch (c.cmd) {
    case 'connect': {
      const t0 = Date.now();
      // The floors (floor.ts) take the role and ambulance in place of a token.
      const kind = c.kind ?? 'lifeline';
      const auth = (role: string, token: string, ambId: number) =>
        kind === 'sio' ? { role, amb: String(ambId) } : { [role === 'driver' ? 'driverToken' : role === 'viewer' ? 'trackToken' : 'token']: token };
      const urlOf = (node?: number) => (node === undefined ? c.url : c.urls![node]);
      const conn = (role: string, token: string, ambId: number, on: (s: ClientSocket) => void, node?: number) =>
        kind === 'ws' ? connectWs(urlOf(node), { role, amb: String(ambId) }, on) : connectOne(urlOf(node), auth(role, token, ambId), on);
      // Viewers and staff boards only listen: the lite client (liteSocket.ts) unless --client socketio.
      const listen = (role: 'viewer' | 'staff', token: string, ambId: number, on: (s: Listening & { connected: boolean }) => void, node?: number) =>
        kind === 'ws' || c.client === 'socketio'
          ? conn(role, token, ambId, on, node)
          : connectLite(urlOf(node), auth(role, token, ambId), { onDisconnect: () => { disconnects++; } }).then((s) => {
            if (!s) return false;
            on(s);
            sockets.push(s);
            return true;
          });
      const jobs: (() => Promise<boolean>)[] = [
        ...c.drivers.map((d) => () => conn('driver', d.token, d.ambId, (s) => drivers.push({ ambId: d.ambId, socket: s }), d.node)),
        ...c.viewers.map((v) => () => listen('viewer', v.token, v.ambId, (s) => viewer(s, v.node ?? 0), v.node)),
        ...Array.from({ length: c.staff.count }, (_, i) => () => listen('staff', c.staff.token, 0, (s) => staffBoard(s, i), c.staff.nodes?.[i])),
      ];
      const results = await pool(jobs, c.width, (j) => j());
      return { connected: results.filter(Boolean).length, failed: results.filter((r) => !r).length, ms: Date.now() - t0 };
    }
    case 'reset':
      since = c.since;
      viewerLat.length = staffLat.length = caseLat.length = 0;
      received.clear();
      receivedByNode.clear();
      outOfOrder = duplicates = viewerMessages = staffMessages = staffPositions = disconnects = 0;
      return { ok: true };
    case 'drive':
      return drive(c.rateHz, c.durationMs);
    case 'ingest':
      return ingest(c);
    case 'poll':
      return poll(c);
    case 'dispatch':
      return dispatch(c);
    case 'report':
      return report();
    case 'close':
      for (const s of sockets) s.close();
      setTimeout(() => process.exit(0), 50);
      return { ok: true };
  }
}

process.on('message', (m: { id: number; c: Cmd }) => {
  handle(m.c).then(
    (result) => process.send!({ id: m.id, result }),
    (err: Error | undefined) => process.send!({ id: m.id, error: String(err?.stack ?? err) }),
  );
});
process.on('disconnect', () => process.exit(0));
