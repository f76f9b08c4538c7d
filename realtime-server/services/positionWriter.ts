import { performance } from 'node:perf_hooks';
import type { PositionAck as AnyPositionAck, PositionInput } from '../contract';
import { isSqlite } from '../../db/connection';
import { type BatchOutline, type NewPosition, type PositionStore, positionRepository } from '../../db/repositories/positionRepository';
import { presentPosition } from '../presenters/presentAmbulance';
import { linkPolicy } from '../policies/links';
import type { DomainEvent } from './events';
import { type PositionSource, sourceName } from './ambulanceService';
import type { ServiceContext } from './context';
import { DomainError, badRequest, conflict, forbidden, notFound } from './errors';

/** The contract's acknowledgement of a stored position. */
export type PositionAck = Extract<AnyPositionAck, { ok: true }>;

/** Clock skew we tolerate on a device's fix time (the fix is stored as taken at its arrival at the latest). */
const FUTURE_SKEW_MS = 30_000;
/**
 * While the ambulance itself has reported a fix this recently (driver link or device), staff
 * may not post its position: the crew's own device is the truth, and a staff post (or a
 * forged one with a stolen session) would move the marker away from it.
 */
export const AMBULANCE_REPORTING_MS = 60_000;
export const STAFF_OVER_DEVICE = 'This ambulance is reporting its own position; staff positions are refused while it does';
/** At most this many positions in one transaction (the rest wait for the next one). */
const MAX_BATCH = 500;
/** Transactions waiting for ambulance rows held elsewhere, at most, at once (PostgreSQL's pool holds 10). */
const ROW_WAIT_LANES = 3;
/**
 * On SQLite a commit's fsync holds the event loop (better-sqlite3 is synchronous), so commits
 * are at least this far apart: under load the positions of those milliseconds share one
 * commit; a position arriving after a quiet spell is written at once. PostgreSQL commits
 * without blocking, and positions arriving meanwhile form the next batch anyway.
 */
export const SQLITE_COMMIT_SPACING_MS = 4;

interface Job {
  id: number;
  input: PositionInput;
  from: PositionSource;
  resolve: (ack: PositionAck) => void;
  reject: (err: unknown) => void;
  /** When it was handed to the writer (performance.now()): its wait for the ack is measured from here. */
  queuedAt: number;
}

/**
 * One position's checks and writes, inside the batch's transaction: the ambulance exists, a
 * driver's case is still active and holds it, the fix time is sane; then the history row, and
 * the latest position moved only forward. Every refusal is thrown before the item writes anything.
 */
async function writeOne(store: PositionStore, job: Job, record: (e: DomainEvent) => void): Promise<PositionAck> {
  const { id, input, from } = job;
  const ambulance = Number.isSafeInteger(id) && id > 0 ? await store.latestFixOf(id) : undefined;
  if (!ambulance) throw notFound('Ambulance details not found');
  if (from.type === 'driver') {
    // Checked in the write's own transaction: once the case closes, not one more position.
    if (!linkPolicy.stillDrives(await store.driveOf(from.caseId, id))) throw forbidden('This driver link is no longer valid: its case is closed');
  }
  const now = Date.now();
  const fixAt = input.timestamp === undefined ? now : new Date(input.timestamp).getTime();
  if (!Number.isFinite(fixAt)) throw badRequest('timestamp: is not a valid time');
  if (fixAt > now + FUTURE_SKEW_MS) throw badRequest('timestamp: is in the future');
  // A fix is never newer than its arrival: one dated ahead (inside the skew) would otherwise stay "latest" and pin the marker.
  const at = Math.min(fixAt, now);
  if (from.type === 'staff' && (await store.reportingSince(id, new Date(now - AMBULANCE_REPORTING_MS).toISOString()))) {
    throw conflict(STAFF_OVER_DEVICE);
  }
  const recordedAt = new Date(at).toISOString();
  // A replay (a GPS app resending a fix it was not sure was delivered) is acknowledged and changes nothing: no second
  // history row, no event. Only a fix dated by its device can be told to be the same one; an undated one is stamped on arrival.
  // The history is looked up only for a fix not newer than the ambulance's latest: this writer alone stores fixes and moves
  // the latest forward (row-locked on PostgreSQL), so no stored fix is newer than it, and a driver's next fix costs no look-up.
  const mayBeStored = ambulance.position_at !== null && recordedAt <= ambulance.position_at;
  if (input.timestamp !== undefined && mayBeStored && (await store.hasFix(id, recordedAt))) return { ok: true, latest: false };
  const row: NewPosition = {
    ambulance_id: id,
    latitude: input.latitude,
    longitude: input.longitude,
    accuracy: input.accuracy ?? null,
    heading: input.heading ?? null,
    speed: input.speed ?? null,
    recorded_at: recordedAt,
    received_at: new Date(now).toISOString(),
    source: sourceName(from),
    battery: input.battery ?? null,
  };
  await store.insert(row);
  const latest = (await store.setLatest(id, {
    latitude: row.latitude, longitude: row.longitude, accuracy: row.accuracy, heading: row.heading,
    speed: row.speed, position_at: row.recorded_at, place_name: null, position_source: row.source, battery: row.battery,
  })) > 0;
  if (latest) record({ type: 'ambulance.position', position: presentPosition(row) });
  return { ok: true, latest };
}

/**
 * What the batch's checks will ask (positionRepository's BatchOutline), so that a store can read it for
 * the whole batch at once. Times as writeOne takes them; where they come out otherwise (a fix dated a
 * moment ahead), the store asks the database.
 */
function outlineOf(batch: Job[]): BatchOutline {
  const now = Date.now();
  const ids = (pick: (j: Job) => boolean) => batch.filter((j) => pick(j) && Number.isSafeInteger(j.id) && j.id > 0).map((j) => j.id);
  const datedFixes: BatchOutline['datedFixes'] = [];
  for (const j of batch) {
    const fixAt = j.input.timestamp === undefined ? NaN : new Date(j.input.timestamp).getTime();
    if (Number.isFinite(fixAt)) datedFixes.push({ ambulanceId: j.id, recordedAt: new Date(Math.min(fixAt, now)).toISOString() });
  }
  return {
    ambulanceIds: ids(() => true),
    driverAmbulanceIds: ids((j) => j.from.type === 'driver'),
    staff: { ambulanceIds: ids((j) => j.from.type === 'staff'), sinceIso: new Date(now - AMBULANCE_REPORTING_MS).toISOString() },
    datedFixes,
  };
}

type Outcome = { ok: true; ack: PositionAck } | { ok: false; error: unknown };

/**
 * Group commit for positions. Positions that arrive while the previous transaction is being
 * written, within the same event-loop turn or (SQLite) within SQLITE_COMMIT_SPACING_MS of the
 * last commit are written together in one transaction: one commit (one fsync on SQLite) for
 * the batch instead of one each. Each position is still checked
 * in that transaction; a refused one (DomainError) fails alone and writes nothing; an unexpected
 * failure rolls the batch back and every position of it is written again in its own transaction,
 * so only the failing one fails. Acks resolve and events are published only after the commit.
 */
export class PositionWriter {
  private queue: Job[] = [];
  private running = false;
  private lastCommitAt = -Infinity;
  private readonly spacingMs: number;
  /**
   * Committed transactions and the positions they stored, positions whose ambulance row was held
   * elsewhere (written beside the queue), and the longest wait from arrival to answer (BENCH_WRITE_STATS=1 prints them).
   */
  readonly stats = { transactions: 0, rows: 0, largest: 0, deferred: 0, longestWaitMs: 0 };
  /** Per ambulance whose row was held elsewhere, its positions waiting for the row, and the lanes' order and count. */
  private readonly rowLanes = new Map<number, Job[]>();
  private readonly laneReady: number[] = [];
  private lanesRunning = 0;
  private statsTimer?: NodeJS.Timeout;

  constructor(private ctx: Pick<ServiceContext, 'db' | 'bus' | 'config' | 'storageHealth' | 'metrics'>, opts: { spacingMs?: number } = {}) {
    this.spacingMs = opts.spacingMs ?? (isSqlite(ctx.db) ? SQLITE_COMMIT_SPACING_MS : 0);
    if (ctx.config.writeStats) {
      let printed = '';
      this.statsTimer = setInterval(() => {
        const line = JSON.stringify(this.stats);
        if (line !== printed) process.stderr.write(`position-writes ${(printed = line)}\n`);
      }, 500);
      this.statsTimer.unref();
    }
  }

  write(id: number, input: PositionInput, from: PositionSource): Promise<PositionAck> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id, input, from, resolve, reject, queuedAt: performance.now() });
      if (!this.running) {
        this.running = true;
        this.schedule();
      }
    });
  }

  /** The next batch: after the spacing since the last commit, and at least after this turn of the event loop (whatever else arrives in it joins). */
  private schedule() {
    const wait = this.spacingMs - (performance.now() - this.lastCommitAt);
    if (wait > 0) setTimeout(() => void this.drain(), wait);
    else setImmediate(() => void this.drain());
  }

  private async drain() {
    try {
      await this.writeBatch(this.queue.splice(0, MAX_BATCH));
    } finally {
      this.lastCommitAt = performance.now();
      if (this.queue.length > 0) this.schedule();
      else this.running = false;
    }
  }

  /**
   * One transaction for `batch`. Positions of an ambulance whose row another transaction holds (a
   * dispatch, a status change, another node's batch: PostgreSQL) are not waited for here, where the
   * whole queue would wait with them: they go to a lane of their own (waitForRow) and the rest commit.
   * `waitForRows` is that lane's own write, which does wait.
   */
  private async writeBatch(batch: Job[], waitForRows = false): Promise<void> {
    let outcomes: Outcome[];
    /** The positions this transaction wrote (outcomes in the same order), and those whose row was held elsewhere. */
    const written: Job[] = [];
    const held: Job[] = [];
    const events: DomainEvent[] = [];
    try {
      outcomes = await this.ctx.db.transaction(async (trx) => {
        const store = await positionRepository.store(trx, { waitForRows });
        const busy = new Set((await store.begin(() => outlineOf(batch))) ?? []);
        const out: Outcome[] = [];
        for (const job of batch) {
          if (busy.has(job.id)) {
            held.push(job);
            continue;
          }
          written.push(job);
          const mine: DomainEvent[] = [];
          try {
            out.push({ ok: true, ack: await writeOne(store, job, (e) => mine.push(e)) });
            events.push(...mine);
          } catch (error) {
            if (!(error instanceof DomainError)) {
              // Here, not after the transaction: on SQLITE_FULL the rollback itself fails and its error would hide this one.
              this.ctx.storageHealth.writeFailed(error);
              throw error;
            }
            out.push({ ok: false, error });
          }
        }
        await store.finish();
        return out;
      });
    } catch (error) {
      if (batch.length === 1) return this.settle(batch[0], { ok: false, error });
      // Rolled back: each position again on its own, so that only the failing one fails.
      for (const job of batch) await this.writeBatch([job], waitForRows);
      return;
    }
    const stored = outcomes.filter((o) => o.ok).length;
    this.stats.transactions++;
    this.stats.rows += stored;
    this.stats.largest = Math.max(this.stats.largest, stored);
    this.ctx.bus.publish(events);
    outcomes.forEach((o, i) => this.settle(written[i], o));
    for (const job of held) this.waitForRow(job);
  }

  private settle(job: Job, o: Outcome) {
    const waited = (performance.now() - job.queuedAt) / 1000;
    this.stats.longestWaitMs = Math.max(this.stats.longestWaitMs, Math.round(waited * 1000));
    this.ctx.metrics?.positionAcked(waited);
    if (o.ok) job.resolve(o.ack);
    else job.reject(o.error);
  }

  /**
   * A position whose ambulance row is held by another transaction: written in a transaction that waits
   * for that row, beside the queue. One lane per ambulance keeps its positions in order; at most
   * ROW_WAIT_LANES lanes hold a connection at once (each waiting lane holds one), so the queue's own
   * transaction always finds one.
   */
  private waitForRow(job: Job) {
    this.stats.deferred++;
    const lane = this.rowLanes.get(job.id);
    if (lane) {
      lane.push(job);
      return;
    }
    this.rowLanes.set(job.id, [job]);
    this.laneReady.push(job.id);
    this.startLanes();
  }

  private startLanes() {
    while (this.lanesRunning < ROW_WAIT_LANES && this.laneReady.length) {
      const id = this.laneReady.shift()!;
      this.lanesRunning++;
      void (async () => {
        try {
          for (let jobs = this.rowLanes.get(id)!; jobs.length; jobs = this.rowLanes.get(id)!) {
            await this.writeBatch(jobs.splice(0, MAX_BATCH), true);
          }
        } finally {
          this.rowLanes.delete(id);
          this.lanesRunning--;
          this.startLanes();
        }
      })();
    }
  }
}

/** The server's one position writer, made with its context (services/serviceContext.ts). */
export const positionWriter = (ctx: Pick<ServiceContext, 'positions'>): PositionWriter => ctx.positions;
