import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { healthProbeRepository } from '../../db/repositories/healthProbeRepository';
import { type ServiceContext, inTransaction } from './context';

/**
 * Error codes that mean the database cannot store what it is given, whatever the statement:
 * SQLite's full disk, I/O errors, read-only or vanished file, corruption; PostgreSQL's class 53
 * (insufficient resources: disk full, out of memory, too many connections), class 58 (system
 * and I/O errors) and 25006 (a read-only transaction: a standby, or a read-only default).
 */
const SQLITE_STORAGE = /^SQLITE_(?:FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB)(?:_[A-Z_]+)?$/;
const POSTGRES_STORAGE = /^(?:5[38][0-9A-Z]{3}|25006)$/;

/** The error's code when it is a storage failure, else undefined. */
export function storageFailureCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  return SQLITE_STORAGE.test(code) || POSTGRES_STORAGE.test(code) ? code : undefined;
}

export interface StorageFailure {
  code: string;
  /** When the latest storage failure was recorded (ms since the epoch). */
  at: number;
}

export interface StorageHealthOptions {
  log: Logger;
  /** A small real write; it throws when the database cannot store it. */
  probe: () => Promise<void>;
  /** While writes fail, health checks probe at most this often (a load balancer may check every second). */
  probeEveryMs?: number;
  now?: () => number;
}

/** How often a failing node tries a write again when its health is checked. */
export const PROBE_EVERY_MS = 2000;

/**
 * Whether this node's database takes writes. Every storage failure is recorded, wherever it
 * happens: knex's `query-error` (every request, job and transaction statement, commits
 * included, see `watch`), the HTTP error handler (a 500 from code that bypasses knex) and
 * `writeFailed` for the rest (prepared statements). While the latest one has not been followed
 * by a successful write probe, `GET /api/health` answers 503, so that a load balancer stops
 * sending here; the probe runs from those health checks, at most every `probeEveryMs` and one
 * at a time, and clears the state once a write goes through again. Only the probe clears it:
 * a small write that fits in an existing page (an update in place) succeeds on a database that
 * cannot grow, so an ordinary success says little about the writes that failed. While all is
 * well a health check writes nothing.
 */
export class StorageHealth {
  private latest: StorageFailure | undefined;
  /** Counts recorded failures, so that a probe clears only failures older than its own start. */
  private failures = 0;
  private lastProbeAt = -Infinity;
  private probing: Promise<void> | undefined;
  private readonly probeEveryMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: StorageHealthOptions) {
    this.probeEveryMs = opts.probeEveryMs ?? PROBE_EVERY_MS;
    this.now = opts.now ?? Date.now;
  }

  /** The storage failure health reports, if any. */
  get failure(): StorageFailure | undefined {
    return this.latest;
  }

  /**
   * Records `err` when it is a storage failure (answers whether it was). Call it wherever a
   * write fails outside knex's own statements, e.g. with better-sqlite3's prepared statements.
   * Call it where the statement threw: on SQLite a full disk also ends the transaction, and
   * knex's ROLLBACK then fails with "no transaction is active", which replaces the cause.
   */
  writeFailed(err: unknown): boolean {
    const code = storageFailureCode(err);
    if (!code) return false;
    if (!this.latest) {
      this.opts.log.error({ err, code }, `database writes are failing (${code}): /api/health answers 503 until a write probe succeeds`);
    }
    this.failures++;
    this.latest = { code, at: this.now() };
    return true;
  }

  /**
   * For a health check: undefined while writes work. While they fail, a write probe runs (at
   * most every `probeEveryMs`; concurrent checks share it) and the failure is answered unless
   * the probe wrote and nothing failed meanwhile.
   */
  async check(): Promise<StorageFailure | undefined> {
    if (!this.latest) return undefined;
    if (this.probing) await this.probing;
    else if (this.now() - this.lastProbeAt >= this.probeEveryMs) await (this.probing = this.probe().finally(() => { this.probing = undefined; }));
    return this.latest;
  }

  private async probe() {
    this.lastProbeAt = this.now();
    const before = this.failures;
    try {
      await this.opts.probe();
    } catch (err) {
      this.writeFailed(err);
      return;
    }
    if (this.failures === before && this.latest) {
      this.opts.log.info({ code: this.latest.code }, 'database writes work again: /api/health answers 200');
      this.latest = undefined;
    }
  }

  /** Records the storage failures of every statement `db` runs (transactions and commits included); answers the unsubscribe. */
  watch(db: Knex): () => void {
    const onError = (err: unknown) => { this.writeFailed(err); };
    db.on('query-error', onError);
    return () => { db.off('query-error', onError); };
  }
}

/** The node's storage health: its probe writes this node's row of `health_probe` in a transaction of its own. */
export function createStorageHealth(ctx: Pick<ServiceContext, 'db' | 'bus' | 'log'>, node: string, opts: Partial<StorageHealthOptions> = {}): StorageHealth {
  const health = new StorageHealth({
    log: ctx.log,
    probe: () => inTransaction(ctx, (trx) => healthProbeRepository.write(trx, node)),
    ...opts,
  });
  health.watch(ctx.db);
  return health;
}
