/**
 * The ingest floor: the least a server must do to store a driver's position durably, on the wire
 * load.ts's `ingest` command speaks, so that the same load measures Lifeline and this.
 *   REST:   POST /api/ambulances/:id/position (`?t=` accepted and ignored) → 200 {"ok":true,"latest":bool}
 *   socket: Socket.IO, the ambulance in the handshake's `auth.amb` (load.ts `kind: 'sio'`),
 *           `ambulance.position` acknowledged with {ok, latest}
 * The write is the real server's on SQLite (a fresh file under .tmp/bench/, the server's own connection
 * settings and WAL checkpoint worker): a history row and the latest position per fix, prepared
 * statements, the positions of a tick in one transaction with commits at least
 * SQLITE_COMMIT_SPACING_MS apart as positionWriter.ts does, acks after the commit. No auth, no
 * checks beyond the payload's shape, no fan-out, no replay guard.
 * Prints `{"port":N}` on stdout once listening and the writer's counters as `position-writes {json}`
 * lines on stderr, as the server does with BENCH_WRITE_STATS=1.
 */
import fs from 'node:fs';
import http from 'node:http';
import type BetterSqlite3 from 'better-sqlite3';
import pino from 'pino';
import { Server } from 'socket.io';
import { openDatabase } from '../../db/connection';
import { startCheckpointer } from '../../db/sqliteCheckpointer';
import { SQLITE_COMMIT_SPACING_MS } from '../../realtime-server/services/positionWriter';
import { freshSqlite } from './server';

/** A driver's position as load.ts sends it (the device's fix time in epoch ms). */
interface Fix { latitude: number; longitude: number; accuracy?: number; timestamp?: number }
interface Ack { ok: boolean; latest?: boolean; error?: string }
interface Job { id: number; fix: Fix; done: (ack: Ack) => void }

/** As positionWriter.ts: at most this many positions in one transaction. */
const MAX_BATCH = 500;

const file = freshSqlite('ingest-floor');
// The server's connection settings (knexConfig: WAL, synchronous=FULL) and its checkpoint worker, which keeps the WAL's copying off the event loop.
const knex = openDatabase(file);
await startCheckpointer(knex, file, pino({ level: 'warn' }, pino.destination(2)));
// The pool's one connection, held from here on: the checkpointer above has had its turn with it.
const conn = await (knex.client as { acquireConnection(): Promise<BetterSqlite3.Database> }).acquireConnection();
conn.exec(`
  create table positions (id integer primary key, ambulance_id integer not null, latitude real not null, longitude real not null,
    accuracy real, recorded_at text not null, received_at text not null);
  -- Any reader of a trail needs it (the real history has the same one): part of the write's cost.
  create index positions_ambulance_recorded on positions (ambulance_id, recorded_at);
  create table latest (ambulance_id integer primary key, latitude real not null, longitude real not null, accuracy real, recorded_at text not null);
`);
const insert = conn.prepare('insert into positions (ambulance_id, latitude, longitude, accuracy, recorded_at, received_at) values (?, ?, ?, ?, ?, ?)');
const upsert = conn.prepare(`insert into latest (ambulance_id, latitude, longitude, accuracy, recorded_at) values (?, ?, ?, ?, ?)
  on conflict (ambulance_id) do update set latitude = excluded.latitude, longitude = excluded.longitude, accuracy = excluded.accuracy, recorded_at = excluded.recorded_at
  where excluded.recorded_at >= latest.recorded_at`);
/** The acks of one batch, answered only once its transaction has committed, and the history rows it wrote (the counters' `rows`). */
const writeBatch = conn.transaction((batch: Job[]) => {
  let rows = 0;
  const acks = batch.map((j): Ack => {
    const recordedAt = new Date(j.fix.timestamp ?? Date.now()).toISOString();
    const accuracy = j.fix.accuracy ?? null;
    rows += insert.run(j.id, j.fix.latitude, j.fix.longitude, accuracy, recordedAt, new Date().toISOString()).changes;
    return { ok: true, latest: upsert.run(j.id, j.fix.latitude, j.fix.longitude, accuracy, recordedAt).changes > 0 };
  });
  return { acks, rows };
});

const stats = { transactions: 0, rows: 0, largest: 0 };
const queue: Job[] = [];
let running = false;
let lastCommitAt = -Infinity;

function write(id: number, fix: Fix, done: (ack: Ack) => void) {
  queue.push({ id, fix, done });
  if (!running) {
    running = true;
    schedule();
  }
}

/** positionWriter.ts' tick: the spacing since the last commit, and at least this turn of the event loop. */
function schedule() {
  const wait = SQLITE_COMMIT_SPACING_MS - (performance.now() - lastCommitAt);
  if (wait > 0) setTimeout(drain, wait);
  else setImmediate(drain);
}

function drain() {
  const batch = queue.splice(0, MAX_BATCH);
  let acks: Ack[];
  try {
    const written = writeBatch(batch);
    acks = written.acks;
    stats.transactions++;
    stats.rows += written.rows;
    stats.largest = Math.max(stats.largest, written.rows);
  } catch (err) {
    acks = batch.map(() => ({ ok: false, error: String((err as Error).message) }));
  }
  lastCommitAt = performance.now();
  batch.forEach((j, i) => j.done(acks[i]));
  if (queue.length > 0) schedule();
  else running = false;
}

let printed = '';
setInterval(() => {
  const line = JSON.stringify(stats);
  if (line !== printed) process.stderr.write(`position-writes ${(printed = line)}\n`);
}, 500).unref();

/** The shape and nothing more: two finite coordinates, an optional numeric accuracy and fix time. */
function shapeError(raw: unknown): string | undefined {
  const f = raw as Partial<Record<keyof Fix, unknown>> | null;
  if (typeof f !== 'object' || f === null) return 'position: expected an object';
  if (typeof f.latitude !== 'number' || !Number.isFinite(f.latitude)) return 'latitude: expected a number';
  if (typeof f.longitude !== 'number' || !Number.isFinite(f.longitude)) return 'longitude: expected a number';
  if (f.accuracy !== undefined && (typeof f.accuracy !== 'number' || !Number.isFinite(f.accuracy))) return 'accuracy: expected a number';
  if (f.timestamp !== undefined && (typeof f.timestamp !== 'number' || !Number.isFinite(f.timestamp))) return 'timestamp: expected epoch milliseconds';
  return undefined;
}

const ROUTE = /^\/api\/ambulances\/(\d+)\/position(?:\?|$)/;
const answer = (res: http.ServerResponse, status: number, body: Ack) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

const server = http.createServer((req, res) => {
  const m = req.method === 'POST' ? ROUTE.exec(req.url ?? '') : null;
  if (!m) return answer(res, 404, { ok: false, error: 'Not found' });
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let fix: unknown;
    try { fix = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { return answer(res, 400, { ok: false, error: 'invalid JSON' }); }
    const bad = shapeError(fix);
    if (bad) return answer(res, 400, { ok: false, error: bad });
    write(Number(m[1]), fix as Fix, (ack) => answer(res, ack.ok ? 200 : 500, ack));
  });
});

// The real server's Socket.IO settings that bear on a driver's socket (realtime/socketServer.ts).
const io = new Server(server, { serveClient: false, maxHttpBufferSize: 64 * 1024 });
io.on('connection', (socket) => {
  const id = Number((socket.handshake.auth as { amb?: string }).amb);
  // Its positions would fail their whole batch (a NULL ambulance): no ambulance, no socket.
  if (!(Number.isSafeInteger(id) && id > 0)) return void socket.disconnect(true);
  socket.on('ambulance.position', (raw: unknown, ack?: (r: Ack) => void) => {
    const reply = typeof ack === 'function' ? ack : () => {};
    const bad = shapeError(raw);
    if (bad) return reply({ ok: false, error: bad });
    write(id, raw as Fix, reply);
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
process.on('SIGTERM', () => {
  // The run's measurements are taken; the file was only there to be written.
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  process.exit(0);
});
