import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { isSqlite } from './connection';

/** How often the worker copies the WAL back into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1000;
/**
 * The server's own connection still checkpoints when the WAL passes this many pages (64 MB),
 * a backstop should the worker fall behind; SQLite's default of 1,000 pages (4 MB) is put back
 * when the worker stops or fails.
 */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 16_384;
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

export interface CheckpointReport {
  /** Pages in the WAL and pages of it now copied into the database (equal: the next commit starts the WAL over). */
  log: number;
  checkpointed: number;
  busy: number;
}

/*
 * Plain CommonJS run with `eval`, so it needs no TypeScript loader in the worker. A PASSIVE
 * checkpoint never waits for a lock: it copies what no reader still needs and tries again at
 * the next interval. synchronous=FULL: the database file is synced before the WAL may restart.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
db.pragma('synchronous = FULL');
let last = '';
const timer = setInterval(() => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    // Reported when something changed: an idle database's WAL stays as it was.
    const now = r.log + '/' + r.checkpointed;
    if (r.log > 0 && now !== last) parentPort.postMessage({ type: 'checkpoint', report: r });
    last = now;
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: String((err && err.message) || err) });
  }
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Runs SQLite's WAL checkpoints on a worker thread with its own connection. better-sqlite3 is
 * synchronous, so a checkpoint on the server's connection (SQLite does one inside the commit
 * that fills 1,000 pages of WAL) copies and fsyncs megabytes while the event loop waits: every
 * ack, fan-out and request of that moment stalls. Writers go on appending to the WAL while a
 * checkpoint runs on another connection. Does nothing for PostgreSQL or an in-memory database.
 */
export async function startCheckpointer(db: Knex, filename: string, log: Logger, opts: { intervalMs?: number; onCheckpoint?: (r: CheckpointReport) => void } = {}): Promise<Checkpointer> {
  if (!isSqlite(db) || filename === ':memory:' || filename === '') return { stop: async () => {} };
  const setAutocheckpoint = (pages: number) => db.raw(`pragma wal_autocheckpoint = ${pages}`).catch((err) => log.warn({ err }, 'could not set wal_autocheckpoint'));
  // Before the worker starts, so that a worker failing at once puts the default back after it.
  await setAutocheckpoint(BACKSTOP_AUTOCHECKPOINT_PAGES);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { filename, driver: createRequire(import.meta.url).resolve('better-sqlite3'), intervalMs: opts.intervalMs ?? CHECKPOINT_INTERVAL_MS },
  });
  // Never what keeps a process alive: a server that failed to start still exits.
  worker.unref();
  let stopping = false;
  let reportedError = false;
  worker.on('message', (m: { type: 'checkpoint'; report: CheckpointReport } | { type: 'error'; message: string }) => {
    if (m.type === 'checkpoint') opts.onCheckpoint?.(m.report);
    else if (!reportedError) {
      reportedError = true;
      log.warn({ error: m.message }, 'WAL checkpoint failed on the checkpoint worker; it tries again every interval');
    }
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (err) => log.error({ err }, 'the checkpoint worker failed'));
  void exited.then(() => {
    if (stopping) return;
    log.error('the checkpoint worker stopped: the server checkpoints the WAL itself again');
    void setAutocheckpoint(DEFAULT_AUTOCHECKPOINT_PAGES);
  });
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      worker.postMessage('stop');
      const kill = setTimeout(() => void worker.terminate(), 5000);
      await exited;
      clearTimeout(kill);
      await setAutocheckpoint(DEFAULT_AUTOCHECKPOINT_PAGES);
    },
  };
}
