import type { Knex } from 'knex';
import { CASE_LOCATION_COLUMN_NAMES, CASE_PLACE_COLUMNS, REDACTED_SHARE, TIMELINE_LOCATION_KEYS } from '../contract';
import { type ServiceContext, inTransaction } from '../services/context';
import { linkPolicy } from '../policies/links';
import { presentCase } from '../presenters/presentCase';
import { caseEventRepository, entryFields } from '../../db/repositories/caseEventRepository';
import type { PatientLocationFields } from '../../db/repositories/types';
import { type EndedKey, caseRepository } from '../../db/repositories/caseRepository';
import { geocodeCacheRepository } from '../../db/repositories/geocodeCacheRepository';
import { geocodeSearchRepository } from '../../db/repositories/geocodeSearchRepository';
import { outboxRepository } from '../../db/repositories/outboxRepository';
import { positionRepository } from '../../db/repositories/positionRepository';
import { prealertRepository } from '../../db/repositories/prealertRepository';
import { runJobExclusive } from './jobLock';
import { asBackground } from '../services/backgroundWork';

/** How often the job runs (and once at start). */
export const RETENTION_EVERY_MS = 60 * 60_000;
const BATCH = 200;
/** Ended cases read per page when looking for those still holding a location (see endedHoldingLocation). */
export const SCAN_PAGE = 500;
const DAY_MS = 24 * 3600_000;
/** What a redacted timeline entry keeps: that a share happened, and when (its row's time). */
export const REDACTED = REDACTED_SHARE;
/** What retention asks the repositories for: where a case and its timeline hold a patient's location (contract/privacy.ts). */
export const PATIENT_LOCATION: PatientLocationFields = {
  columns: CASE_LOCATION_COLUMN_NAMES,
  places: CASE_PLACE_COLUMNS,
  redactedShare: JSON.stringify(REDACTED_SHARE),
  editKeys: [...new Set([...TIMELINE_LOCATION_KEYS.created, ...TIMELINE_LOCATION_KEYS.updated])],
};
const REDACTED_JSON = PATIENT_LOCATION.redactedShare;

export interface RetentionResult {
  /** Cases whose patient position or intake location was cleared. */
  casesCleared: number;
  /** Timeline entries whose coordinates were redacted ('location' entries, the intake location in 'created' and 'updated', and the copy kept by 'deleted'). */
  entriesRedacted: number;
  /** Pre-alerts whose clinical content (the ATMIST) was taken out; their times and activation stay for the reports. */
  prealertsRedacted: number;
  /** Ambulance position history rows deleted. */
  positionsDeleted: number;
  /** Reverse-geocoding cache entries (coordinates → place names) deleted. */
  placesDeleted: number;
  /** Address searches (typed at intake) deleted from their cache. */
  searchesDeleted: number;
  /** Queued e-mails whose secrets no longer work (an expired sign-in code, the links of a case no longer active) that lost them. */
  outboxRedacted: number;
  /** E-mails sent or failed before the cutoff, deleted. */
  outboxDeleted: number;
}

const isRedacted = (v: string | null) => v == null || entryFields(v)?.redacted === true;

/**
 * Deletes patient positions and ambulance position history older than the retention:
 * `config.retentionDays` after a case was closed or resolved (or deleted).
 *
 * - The case's location columns (contract CASE_LOCATION_COLUMNS: the shared position with its accuracy and
 *   time, the intake location taken on the phone with how it was found) are cleared, its version
 *   moves on, a 'location.redacted' entry by the system says so on its timeline, and staff hear
 *   `case.updated` (all in one transaction per case, the event after its commit).
 * - The coordinates in its 'location' timeline entries become `REDACTED` (the entries stay:
 *   a share happened, and when); its 'created' and 'updated' entries lose the intake
 *   location's place (`redacted: true` says so); so do the locations in the copy a 'deleted' entry keeps
 *   (which keys, per action: contract TIMELINE_LOCATION_KEYS).
 * - Ambulance position rows older than the retention are deleted, except those recorded
 *   while a case of that ambulance was open that has not been closed that long.
 * - Pre-alerts of those cases lose their clinical content (the ATMIST: age, sex, mechanism, injuries, signs,
 *   treatment); their sent and acknowledged times and activation stay for the handover report.
 * - Reverse-geocoding cache entries (place names keyed by coordinates) and address searches that old are deleted.
 * - E-mails sent or failed that long ago are deleted; a queued one whose secrets no longer
 *   work (a sign-in code past its expiry, the links of a case no longer active) loses them.
 *
 * Every statement is idempotent and conditional on what it changes (a case is cleared only
 * while it still has a position; an entry is rewritten only if it still holds what was
 * read), so several nodes may run it at once: each change happens, and is recorded, once.
 */
export async function runRetention(ctx: ServiceContext, now = new Date()): Promise<RetentionResult> {
  const { db } = ctx;
  const cutoff = new Date(now.getTime() - ctx.config.retentionDays * DAY_MS).toISOString();
  const result: RetentionResult = { casesCleared: 0, entriesRedacted: 0, prealertsRedacted: 0, positionsDeleted: 0, placesDeleted: 0, searchesDeleted: 0, outboxRedacted: 0, outboxDeleted: 0 };

  // 1. Cases closed or resolved before the cutoff that still hold a patient position or an intake location, or whose timeline still holds one.
  for await (const id of endedHoldingLocation(db, cutoff)) {
    const { cleared, redacted } = await inTransaction(ctx, async (trx, record) => {
      const cleared = await caseRepository.clearLocationEndedBefore(trx, id, cutoff, PATIENT_LOCATION);
      if (cleared > 0) {
        await caseEventRepository.insert(trx, {
          caseId: id, action: 'location.redacted', actor: { type: 'system' },
          after: { reason: `retention: closed more than ${ctx.config.retentionDays} days ago` }, at: now.toISOString(),
        });
        const row = await caseRepository.findById(trx, id);
        if (row) record({ type: 'case.updated', case: presentCase(row) });
      }
      return { cleared, redacted: await redactLocationEntries(trx, id) + await redactIntakeEntries(trx, id) };
    });
    if (cleared > 0) result.casesCleared += 1;
    result.entriesRedacted += redacted;
  }

  // 2. Deleted cases (the deletion is their close): their 'location' entries, and the copy of the case the 'deleted' entry keeps.
  for (const caseId of await caseEventRepository.deletedBeforeHoldingLocation(db, cutoff, REDACTED_JSON)) {
    result.entriesRedacted += await inTransaction(ctx, (trx) => redactLocationEntries(trx, caseId));
  }
  for (const caseId of await caseEventRepository.deletedBeforeHoldingIntake(db, cutoff, PATIENT_LOCATION.editKeys)) {
    result.entriesRedacted += await inTransaction(ctx, (trx) => redactIntakeEntries(trx, caseId));
  }
  for (const d of await caseEventRepository.deletedCopiesBefore(db, cutoff)) {
    const copy = entryFields(d.before);
    if (!copy || !DELETED_COPY_KEYS.some((k) => copy[k] != null)) continue;
    for (const k of DELETED_COPY_KEYS) if (k in copy) copy[k] = null;
    result.entriesRedacted += await caseEventRepository.rewrite(db, { id: d.id, before: d.before, after: null }, { before: JSON.stringify(copy) });
  }

  // 2b. Pre-alerts are clinical data: their content goes with the patient's location, whether or not the case held one
  //     (a deleted case's pre-alerts went with it).
  for (;;) {
    const ids = await prealertRepository.endedCasesHoldingContent(db, cutoff, BATCH);
    if (ids.length > 0) result.prealertsRedacted += await prealertRepository.redactForCases(db, ids, now.toISOString());
    if (ids.length < BATCH) break;
  }

  // 3. Ambulance position history older than the cutoff.
  for (;;) {
    const n = await positionRepository.deleteHistoryBefore(db, cutoff, 1000);
    result.positionsDeleted += n;
    if (n < 1000) break;
  }

  // 4. Place names looked up for coordinates and places found for typed addresses (patients' among them): caches, refilled on demand.
  result.placesDeleted = await geocodeCacheRepository.deleteBefore(db, cutoff);
  result.searchesDeleted = await geocodeSearchRepository.deleteBefore(db, cutoff);

  // 5. E-mails: a queued one whose secrets no longer work keeps no copy of them; sent and failed ones that old go.
  result.outboxRedacted = await outboxRepository.redactDeadSecrets(db, now.toISOString(), linkPolicy.mailLinksLive);
  for (;;) {
    const n = await outboxRepository.deleteFinishedBefore(db, cutoff, 1000);
    result.outboxDeleted += n;
    if (n < 1000) break;
  }
  return result;
}

/**
 * The cases of step 1, a page of the ended ones at a time, the event loop given a turn between pages: on a busy
 * centre's year one read over every ended call held the thread for a second (better-sqlite3 reads synchronously).
 */
async function* endedHoldingLocation(db: Knex, cutoff: string): AsyncGenerator<string> {
  let after: EndedKey | null = null;
  do {
    const page = await caseRepository.endedBeforeHoldingLocation(db, cutoff, after, SCAN_PAGE, PATIENT_LOCATION);
    yield* page.ids;
    after = page.next;
    await new Promise((r) => setImmediate(r));
  } while (after);
}

/** The location fields of the copy of a case a 'deleted' entry keeps. */
const DELETED_COPY_KEYS = TIMELINE_LOCATION_KEYS.deleted;

/** Redacts the coordinates of a case's 'location' entries; answers how many it rewrote. */
async function redactLocationEntries(trx: Knex.Transaction, caseId: string): Promise<number> {
  let n = 0;
  for (;;) {
    const entries = await caseEventRepository.locationEntriesToRedact(trx, caseId, BATCH, REDACTED_JSON);
    const todo = entries.filter((e) => !isRedacted(e.after) || !isRedacted(e.before) || e.after == null);
    if (todo.length === 0) return n;
    for (const e of todo) {
      n += await caseEventRepository.rewrite(trx, e, e.before == null ? { after: REDACTED_JSON } : { after: REDACTED_JSON, before: REDACTED_JSON });
    }
    if (entries.length < BATCH) return n;
  }
}

/** One side of an entry without the intake location's place; null when it holds none. */
function withoutIntakePlace(json: string | null): string | null {
  const fields = entryFields(json);
  if (!fields || !PATIENT_LOCATION.editKeys.some((k) => k in fields)) return null;
  for (const k of PATIENT_LOCATION.editKeys) delete fields[k];
  return JSON.stringify({ ...fields, redacted: true });
}

/** Takes the intake location's place out of a case's 'created' and 'updated' entries; answers how many it rewrote. */
async function redactIntakeEntries(trx: Knex.Transaction, caseId: string): Promise<number> {
  let n = 0;
  for (;;) {
    const entries = await caseEventRepository.intakeEntriesToRedact(trx, caseId, BATCH, PATIENT_LOCATION.editKeys);
    let rewritten = 0;
    for (const e of entries) {
      const before = withoutIntakePlace(e.before);
      const after = withoutIntakePlace(e.after);
      if (before == null && after == null) continue;
      rewritten += await caseEventRepository.rewrite(trx, e, { ...(before == null ? {} : { before }), ...(after == null ? {} : { after }) });
    }
    n += rewritten;
    // What the query matched but held no place (the pattern is loose) is left: stop when nothing more changes.
    if (entries.length < BATCH || rewritten === 0) return n;
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
    running = asBackground('retention', () => runJobExclusive(ctx, 'retention', everyMs / 2, () => runRetention(ctx)))
      .then((o) => {
        if (!o.ran) { ctx.log.debug({ reason: o.reason }, 'retention: pass skipped (another node runs or ran it)'); return; }
        const r = o.result;
        if (Object.values(r).some((n) => n > 0)) ctx.log.info({ ...r, retentionDays: ctx.config.retentionDays }, 'retention: old positions, e-mails, intake places, pre-alert content and address searches cleared');
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
