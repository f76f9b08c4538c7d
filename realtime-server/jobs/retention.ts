import type { Knex } from 'knex';
import type { ServiceContext } from '../services/context';
import { outboxRepository } from '../../db/repositories/outboxRepository';
import { runJobExclusive } from './jobLock';

/** How often the job runs (and once at start). */
export const RETENTION_EVERY_MS = 60 * 60_000;
const BATCH = 200;
const DAY_MS = 24 * 3600_000;
/** What a redacted timeline entry keeps: that a share happened, and when (its row's time). */
export const REDACTED = { latitude: null, longitude: null, accuracy: null, redacted: true } as const;
const CLOSED = ['closed', 'resolved'];

export interface RetentionResult {
  /** Cases whose patient position was cleared. */
  casesCleared: number;
  /** Timeline entries whose coordinates were redacted ('location' entries, and the copy kept by 'deleted'). */
  entriesRedacted: number;
  /** Ambulance position history rows deleted. */
  positionsDeleted: number;
  /** Reverse-geocoding cache entries (coordinates → place names) deleted. */
  placesDeleted: number;
  /** Queued e-mails whose secrets no longer work (an expired sign-in code, the links of a case no longer active) that lost them. */
  outboxRedacted: number;
  /** E-mails sent or failed before the cutoff, deleted. */
  outboxDeleted: number;
}

const parse = (v: string | null): Record<string, unknown> | null => {
  if (!v) return null;
  try { return JSON.parse(v); } catch { return null; }
};
const isRedacted = (v: string | null) => v == null || parse(v)?.redacted === true;

/** Rewrites one timeline entry's JSON only if it is still what was read (compare-and-set: safe with several nodes). */
async function rewriteEntry(db: Knex, id: number, column: 'before' | 'after', was: string, now: string) {
  return db('case_events').where({ id }).where(column, was).update({ [column]: now });
}

/**
 * Deletes patient positions and ambulance position history older than the retention:
 * `config.retentionDays` after a case was closed or resolved (or deleted).
 *
 * - The case's shared position (latitude, longitude, accuracy, time) is cleared and a
 *   'location.redacted' entry by the system says so on its timeline.
 * - The coordinates in its 'location' timeline entries become `REDACTED` (the entries stay:
 *   a share happened, and when); so do the coordinates in the copy a 'deleted' entry keeps.
 * - Ambulance position rows older than the retention are deleted, except those recorded
 *   while a case of that ambulance was open that has not been closed that long.
 * - Reverse-geocoding cache entries (place names keyed by coordinates) that old are deleted.
 * - E-mails sent or failed that long ago are deleted; a queued one whose secrets no longer
 *   work (a sign-in code past its expiry, the links of a case no longer active) loses them.
 *
 * Every statement is idempotent and conditional on what it changes (a case is cleared only
 * while it still has a position; an entry is rewritten only if it still holds what was
 * read), so several nodes may run it at once: each change happens, and is recorded, once.
 */
export async function runRetention(ctx: Pick<ServiceContext, 'db' | 'config'>, now = new Date()): Promise<RetentionResult> {
  const { db } = ctx;
  const cutoff = new Date(now.getTime() - ctx.config.retentionDays * DAY_MS).toISOString();
  const result: RetentionResult = { casesCleared: 0, entriesRedacted: 0, positionsDeleted: 0, placesDeleted: 0, outboxRedacted: 0, outboxDeleted: 0 };

  // 1. Cases closed or resolved before the cutoff that still hold a patient position, or whose timeline still holds one.
  const cases: { id: string }[] = await db('cases')
    .whereIn('status', CLOSED).where('closed_at', '<', cutoff)
    .where((q) => q.whereNotNull('location_at').orWhereNotNull('latitude').orWhereNotNull('longitude')
      .orWhereExists(db('case_events').whereRaw('case_events.case_id = cases.id').where({ action: 'location' }).whereNot('after', JSON.stringify(REDACTED))))
    .select('id');
  for (const { id } of cases) {
    await db.transaction(async (trx) => {
      const cleared = await trx('cases')
        .where({ id }).whereIn('status', CLOSED).where('closed_at', '<', cutoff)
        .where((q) => q.whereNotNull('location_at').orWhereNotNull('latitude').orWhereNotNull('longitude'))
        .update({ latitude: null, longitude: null, location_accuracy: null, location_at: null });
      if (cleared > 0) {
        result.casesCleared += 1;
        await trx('case_events').insert({
          case_id: id, action: 'location.redacted', actor_type: 'system', actor_id: null, before: null,
          after: JSON.stringify({ reason: `retention: closed more than ${ctx.config.retentionDays} days ago` }), created_at: now.toISOString(),
        });
      }
      result.entriesRedacted += await redactLocationEntries(trx, id);
    });
  }

  // 2. Deleted cases (the deletion is their close): their 'location' entries, and the copy of the case the 'deleted' entry keeps.
  const redacted = JSON.stringify(REDACTED);
  const orphans: string[] = await db('case_events as e')
    .where('e.action', 'location')
    .where((q) => q.whereNot('e.after', redacted).orWhereNull('e.after'))
    .whereNotExists(db('cases').whereRaw('cases.id = e.case_id'))
    .whereExists(db('case_events as d').whereRaw('d.case_id = e.case_id').where('d.action', 'deleted').where('d.created_at', '<', cutoff))
    .distinct('e.case_id').pluck('e.case_id');
  for (const caseId of orphans) result.entriesRedacted += await db.transaction((trx) => redactLocationEntries(trx, caseId));
  const copies: { id: number; before: string }[] = await db('case_events')
    .where({ action: 'deleted' }).where('created_at', '<', cutoff)
    .whereNotNull('before').whereNot('before', 'like', '%"latitude":null%')
    .select('id', 'before');
  for (const d of copies) {
    const copy = parse(d.before);
    if (!copy || !LOCATION_KEYS.some((k) => copy[k] != null)) continue;
    for (const k of LOCATION_KEYS) if (k in copy) copy[k] = null;
    result.entriesRedacted += await rewriteEntry(db, d.id, 'before', d.before, JSON.stringify(copy));
  }

  // 3. Ambulance position history older than the cutoff.
  for (;;) {
    const ids: number[] = await db('ambulance_positions as p')
      .where('p.recorded_at', '<', cutoff)
      // Kept: recorded within a case of that ambulance (from its creation to its close) that is still open or closed since the cutoff.
      .whereNotExists(db('cases as c')
        .whereRaw('c.ambulance_id = p.ambulance_id')
        .whereRaw('c.created_at <= p.recorded_at')
        .where((q) => q.whereNull('c.closed_at').orWhereRaw('p.recorded_at <= c.closed_at'))
        .where((q) => q.whereNotIn('c.status', CLOSED).orWhereNull('c.closed_at').orWhere('c.closed_at', '>=', cutoff)))
      .limit(1000).pluck('p.id');
    if (ids.length === 0) break;
    result.positionsDeleted += await db('ambulance_positions').whereIn('id', ids).delete();
    if (ids.length < 1000) break;
  }

  // 4. Place names looked up for coordinates (patients' among them): a cache, refilled on demand.
  result.placesDeleted = await db('geocode_cache').where('created_at', '<', cutoff).delete();

  // 5. E-mails: a queued one whose secrets no longer work keeps no copy of them; sent and failed ones that old go.
  result.outboxRedacted = await outboxRepository.redactDeadSecrets(db, now.toISOString());
  for (;;) {
    const n = await outboxRepository.deleteFinishedBefore(db, cutoff, 1000);
    result.outboxDeleted += n;
    if (n < 1000) break;
  }
  return result;
}

/** Every location field a case or its presented copy carries. */
const LOCATION_KEYS = ['latitude', 'longitude', 'location_accuracy', 'location_at', 'location_updated_at', 'wkb'];

/** Redacts the coordinates of a case's 'location' entries; answers how many it rewrote. */
async function redactLocationEntries(trx: Knex.Transaction, caseId: string): Promise<number> {
  let n = 0;
  const redacted = JSON.stringify(REDACTED);
  for (;;) {
    const entries: { id: number; before: string | null; after: string | null }[] = await trx('case_events')
      .where({ case_id: caseId, action: 'location' })
      .where((q) => q.whereNot('after', redacted).orWhereNull('after').orWhere((b) => b.whereNotNull('before').whereNot('before', redacted)))
      .limit(BATCH).select('id', 'before', 'after');
    const todo = entries.filter((e) => !isRedacted(e.after) || !isRedacted(e.before) || e.after == null);
    if (todo.length === 0) return n;
    for (const e of todo) {
      const update: Record<string, string | null> = { after: redacted };
      if (e.before != null) update.before = redacted;
      n += await trx('case_events').where({ id: e.id })
        .where((q) => (e.after == null ? q.whereNull('after') : q.where('after', e.after)))
        .update(update);
    }
    if (entries.length < BATCH) return n;
  }
}

/**
 * Runs the job at start and every RETENTION_EVERY_MS; a failed pass is logged and tried again next time.
 * With several nodes on PostgreSQL one node runs a pass at a time, and a pass is skipped when
 * another node finished one less than half an interval ago (jobLock.ts): the hourly job runs
 * about once an hour in all, not once per node.
 */
export function startRetentionJob(ctx: ServiceContext, everyMs = RETENTION_EVERY_MS) {
  let running: Promise<void> | undefined;
  let stopped = false;
  const pass = () => {
    if (running || stopped) return;
    running = runJobExclusive(ctx.db, 'retention', everyMs / 2, () => runRetention(ctx))
      .then((o) => {
        if (!o.ran) { ctx.log.debug({ reason: o.reason }, 'retention: pass skipped (another node runs or ran it)'); return; }
        const r = o.result;
        if (Object.values(r).some((n) => n > 0)) ctx.log.info({ ...r, retentionDays: ctx.config.retentionDays }, 'retention: old positions and e-mails deleted');
      })
      .catch((err) => { if (!stopped) ctx.log.error({ err }, 'retention pass failed'); })
      .finally(() => { running = undefined; });
  };
  pass();
  const ready = running ?? Promise.resolve();
  const timer = setInterval(pass, everyMs);
  timer.unref?.();
  return {
    /** The first pass (failures are logged, never thrown). */
    ready,
    /** Resolves once the pass in progress (if any) is done. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
