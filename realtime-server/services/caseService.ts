import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { BOARD_ENDED_MAX, CASE_PAGE_DEFAULT, HISTORY_COUNT_CAP, type CaseBoardResponse, type CaseHistoryQuery, type CaseHistoryResponse } from '../contract/caseLists';
import type { CaseCreated, CaseCreateInput, CaseUpdateInput, IntakeLocationInput, LocationLinkState, ShareLocationInput, TimelineEntryDto } from '../contract';
import { ambulanceRepository } from '../../db/repositories/ambulanceRepository';
import { assignmentRepository } from '../../db/repositories/assignmentRepository';
import { caseEventRepository } from '../../db/repositories/caseEventRepository';
import { type CaseFields, type CaseHistoryFilter, caseRepository } from '../../db/repositories/caseRepository';
import { foldSearch } from '../../db/repositories/caseSearchText';
import { outboxRepository } from '../../db/repositories/outboxRepository';
import { trackTokenRepository } from '../../db/repositories/trackTokenRepository';
import { userRepository } from '../../db/repositories/userRepository';
import type { AmbulanceRow, CaseRow, Db } from '../../db/repositories/types';
import { casePolicy } from '../policies/casePolicy';
import { LOCATION_LINK_STATUSES, linkPolicy } from '../policies/links';
import { presentAmbulance } from '../presenters/presentAmbulance';
import { presentUnits } from '../presenters/presentAssignment';
import { etaModel } from './dispatchSuggestions';
import { presentCase, presentCaseLocation } from '../presenters/presentCase';
import { presentCaseEvent } from '../presenters/presentCaseEvent';
import type { DomainEvent } from './events';
import { conflict, forbidden, gone, notFound, unprocessable } from './errors';
import { type Actor, type ServiceContext, inTransaction, timelineActor } from './context';
import { assignments, revokeUnitLinks } from './assignmentService';
import { mailTemplates } from './mailTemplates';
import { notifyDispatch } from './dispatchNotices';
import { hashToken, newToken, sameHash } from './tokens';
import { systemClock } from './clock';
import { keysetPage } from './keysetCursor';

type Record = (e: DomainEvent) => void;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/**
 * The repository's filter for a validated history query: `q` folded as the stored search text
 * is; `from` a lower bound on creation, `to` an upper one (a bare day `to` takes in that whole
 * day, UTC, as a date picker's "to" means).
 */
function historyFilter(q: CaseHistoryQuery): CaseHistoryFilter {
  const iso = (v: string) => new Date(v).toISOString();
  let toIso: string | undefined;
  if (q.to) toIso = DAY.test(q.to) ? new Date(Date.parse(q.to) + 86_400_000).toISOString() : new Date(Date.parse(q.to) + 1).toISOString();
  return { q: q.q ? foldSearch(q.q) : undefined, status: q.status, priority: q.priority, fromIso: q.from ? iso(q.from) : undefined, toIso };
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const round8 = (v: number) => Math.round(v * 1e8) / 1e8;
/** The case columns of an intake location (all null to forget it). */
const intakeFields = (l: IntakeLocationInput | null) => ({
  intake_latitude: l ? round8(l.latitude) : null,
  intake_longitude: l ? round8(l.longitude) : null,
  intake_address: l?.address ?? null,
  intake_source: l?.source ?? null,
});
export { timelineActor };

export async function findCase(trx: Db, id: string): Promise<CaseRow> {
  const row = UUID.test(id) ? await caseRepository.findById(trx, id) : undefined;
  if (!row) throw notFound('Case not found');
  return row;
}

/**
 * The case for a write, its row locked until the transaction ends, so that concurrent writes
 * of one case (PostgreSQL's pool runs them at once) apply one after the other.
 */
export async function findCaseForUpdate(trx: Knex.Transaction, id: string): Promise<CaseRow> {
  if (UUID.test(id)) await caseRepository.lock(trx, id);
  return findCase(trx, id);
}

/** Takes an ambulance for a case: only one that exists and is available right now. */
export async function claimAmbulance(trx: Knex.Transaction, id: number) {
  const ambulance = await ambulanceRepository.findById(trx, id);
  if (!ambulance) throw unprocessable(`Ambulance ${id} does not exist`);
  if (!(await ambulanceRepository.claimIfAvailable(trx, id))) {
    throw conflict(`Ambulance ${ambulance.license_plate} is not available; choose another ambulance`);
  }
  // Its event is recorded by the caller, once the assignment that makes it busy exists.
  return ambulance;
}

async function releaseAmbulance(trx: Knex.Transaction, id: number) {
  return (await ambulanceRepository.release(trx, id)) > 0;
}

async function publishAmbulance(trx: Knex.Transaction, id: number, record: Record) {
  record({ type: 'ambulance.updated', ambulance: presentAmbulance((await ambulanceRepository.findById(trx, id))!) });
}

/**
 * Before an ambulance is deleted: the cases that still name it (none active; the caller
 * checked) lose the reference as recorded changes (a new version, a timeline entry, an
 * event), never through the foreign key's silent ON DELETE SET NULL, which left clients
 * holding the same version with other contents and the timeline disagreeing with the row.
 */
export async function unassignAmbulance(trx: Knex.Transaction, record: Record, ambulanceId: number, actor: Actor) {
  // Assignments keep the plate they were dispatched with; the cases' events below show them without the ambulance.
  // A case taken off this ambulance (or where it was one of several units) still shows it among its units: that changes too, recorded the same way.
  const showing = await caseRepository.withAssignmentOf(trx, ambulanceId);
  await assignmentRepository.forgetAmbulance(trx, ambulanceId);
  for (const c of showing) {
    await caseRepository.touch(trx, c.id);
    await caseEventRepository.insert(trx, {
      caseId: c.id, action: 'updated', actor: timelineActor(actor),
      before: { assignment_ambulance_id: ambulanceId }, after: { assignment_ambulance_id: null },
    });
    record({ type: 'case.updated', case: presentCase((await caseRepository.findById(trx, c.id))!) });
  }
  for (const c of await caseRepository.referencingAmbulance(trx, ambulanceId)) {
    await caseRepository.update(trx, c.id, { ambulance_id: null });
    await caseEventRepository.insert(trx, {
      caseId: c.id, action: 'updated', actor: timelineActor(actor), before: { ambulance_id: ambulanceId }, after: { ambulance_id: null },
    });
    record({ type: 'case.updated', case: presentCase((await caseRepository.findById(trx, c.id))!) });
  }
}

/** A staff member's reads of one patient's location are recorded at most this often. */
export const LOCATION_VIEW_EVERY_MS = 10 * 60_000;

/**
 * Audit of reads: each case with a shared patient location that a staff member has fetched
 * gets a 'location.viewed' timeline entry (actor: that staff member; after: which shared
 * position it was), at most one per staff member and case every LOCATION_VIEW_EVERY_MS.
 * Live pushes over the socket are not recorded one by one (docs/api.md, "Audit", says why). The staff member's
 * row is locked for the check and the insert, so concurrent fetches record once; the cases'
 * rows are share-locked, so a concurrent delete stays the last entry of a timeline.
 */
async function recordLocationViews(ctx: ServiceContext, viewer: Actor & { type: 'user' }, rows: CaseRow[]) {
  const located = rows.filter((r) => r.location_at != null && r.latitude != null && r.longitude != null);
  if (located.length === 0) return;
  await ctx.db.transaction(async (trx) => {
    await userRepository.lock(trx, viewer.id);
    const since = new Date(Date.now() - LOCATION_VIEW_EVERY_MS).toISOString();
    const recent = await caseEventRepository.recentlyBy(trx, 'location.viewed', viewer.id, located.map((r) => r.id), since);
    const due = located.filter((r) => !recent.has(r.id));
    if (due.length === 0) return;
    const existing = await caseRepository.existingHeld(trx, due.map((r) => r.id));
    for (const r of due) {
      if (!existing.has(r.id)) continue; // deleted meanwhile
      await caseEventRepository.insert(trx, { caseId: r.id, action: 'location.viewed', actor: { type: 'user', id: viewer.id }, after: { location_updated_at: r.location_at } });
    }
  });
}

/** The link the patient opens to share where they are (mailed, and shown to the dispatcher who created the case). */
export const patientLocationLink = (publicUrl: string, caseId: string, token: string) => `${publicUrl}/location/${caseId}?t=${token}`;

/** Whether `token` is this case's location-link token (a case without one accepts none). */
const locationTokenMatches = (c: CaseRow, token: string) =>
  Boolean(token && c.location_token_hash && sameHash(c.location_token_hash, hashToken(token)));

/**
 * The earlier values of the fields that `after` changes, or null when it changes none: a
 * timeline never shows a change from a value to the same value. (A 'location' entry keeps
 * the whole new position in `after`: the case's position is replayed from it.)
 */
function changedFrom<T extends { [field: string]: unknown }>(before: T, after: T): Partial<T> | null {
  const changed = Object.keys(after).filter((k) => before[k] !== after[k]);
  return changed.length ? (Object.fromEntries(changed.map((k) => [k, before[k]])) as Partial<T>) : null;
}

/** Takes one unit off a call that stays active: its open assignment ends cancelled (for the case's timeline entry). */
async function endUnit(trx: Knex.Transaction, caseId: string, ambulanceId: number, at: string) {
  const open = await assignmentRepository.openFor(trx, caseId, ambulanceId);
  if (!open) return null;
  return { ambulanceIds: [ambulanceId], ...await assignments.endOne(trx, open, 'reassigning', at) };
}

/** The ambulance an active case holds, or null. */
const heldAmbulance = (status: string, ambulanceId: number | null) => (status === 'active' ? ambulanceId : null);

export const caseService = {
  /**
   * Creates an active case (or a waiting one, pending) and, when an ambulance is named, assigns
   * it in the same transaction only if it is available; otherwise nothing is written (409).
   * With an ambulance the crew hears at once (notifyDispatch: the driver link mailed; the answer's
   * `crew` says whether). With `notifyPatient` the patient's share-location e-mail is queued in
   * that transaction too: naming the ambulance with its tracking link, or, for a waiting call,
   * saying help is being arranged.
   */
  create: (ctx: ServiceContext, actor: Actor & { type: 'user' }, input: CaseCreateInput, opts: { notifyPatient: boolean }) =>
    inTransaction(ctx, async (trx, record): Promise<CaseCreated> => {
      if (!casePolicy.mayCreate(actor, input)) throw forbidden('operator_id must be your own id');
      const id = randomUUID();
      const now = new Date().toISOString();
      const ambulance = input.ambulanceId != null ? await claimAmbulance(trx, input.ambulanceId) : null;
      const locationToken = newToken();
      await caseRepository.insert(trx, {
        id,
        description: input.description,
        status: input.status,
        priority: input.priority,
        call_received_at: input.callReceivedAt ?? now,
        case_type: input.caseType,
        patient_name: input.patientName,
        patient_email: input.patientEmail,
        operator_id: actor.id,
        ambulance_id: ambulance?.id ?? null,
        location_token_hash: hashToken(locationToken),
        dispatched_at: ambulance ? now : null,
        ...intakeFields(input.intake),
      }, ambulance?.license_plate ?? null);
      const created = (await caseRepository.findById(trx, id))!;
      await caseEventRepository.insert(trx, {
        caseId: id, action: 'created', actor: timelineActor(actor),
        after: {
          status: created.status, priority: created.priority, call_received_at: created.call_received_at, patient_name: created.patient_name,
          patient_email: created.patient_email, description: created.description, case_type: created.case_type, ambulance_id: created.ambulance_id,
          ...(input.intake ? intakeFields(input.intake) : {}),
        },
      });
      if (ambulance) {
        await caseRepository.setAssignment(trx, id, await assignments.start(trx, id, ambulance, now));
        record({ type: 'ambulance.updated', ambulance: presentAmbulance((await ambulanceRepository.findById(trx, ambulance.id))!) });
      }
      // Only taking a unit writes the row again (its assignment): without one, the row read above is the row.
      const row = ambulance ? (await caseRepository.findById(trx, id))! : created;
      const dto = presentCase(row);
      const locationLink = patientLocationLink(ctx.config.publicUrl, id, locationToken);
      // The crew hears at dispatch; the patient's tracking link goes in their one mail below.
      const dispatched = ambulance ? await notifyDispatch(trx, record, ctx, actor, row, ambulance, { patient: opts.notifyPatient ? 'told' : 'none' }) : null;
      if (opts.notifyPatient) {
        const named = ambulance && dispatched ? { plate: ambulance.license_plate, trackLink: dispatched.links.trackLink } : null;
        await outboxRepository.insert(trx, mailTemplates.shareLocation(row, locationLink, named));
        record({ type: 'mail.queued' });
      }
      record({ type: 'case.created', case: dto });
      return { case: dto, locationLink, crew: dispatched?.crew ?? null };
    }),

  /**
   * The live board (contract/caseLists.ts): open calls in board order, then the calls that ended
   * in the last BOARD_RECENT_HOURS, newest first; read by a staff member (`viewer`), the patients'
   * locations it shows go on the timelines.
   */
  async board(ctx: ServiceContext, viewer?: Actor & { type: 'user' }): Promise<CaseBoardResponse> {
    const since = new Date((ctx.clock ?? systemClock).now() - ctx.config.boardRecentHours * 3600_000).toISOString();
    const open = await caseRepository.boardOpen(ctx.db);
    const rows = [...open, ...(await caseRepository.boardEnded(ctx.db, since, BOARD_ENDED_MAX))];
    // Every open call is on the board, so it is counted from these rows rather than read again.
    const counts = { active: open.filter((r) => r.status === 'active').length, pending: open.filter((r) => r.status === 'pending').length, total: await caseRepository.total(ctx.db) };
    if (viewer) await recordLocationViews(ctx, viewer, rows);
    const model = await etaModel(ctx);
    return { cases: rows.map((r) => presentCase(r, model)), counts };
  },

  /** One page of history (keyset by created_at, id); only the page's rows go on the timelines as seen. */
  async history(ctx: ServiceContext, query: CaseHistoryQuery, viewer?: Actor & { type: 'user' }): Promise<CaseHistoryResponse> {
    const filter = await caseRepository.planSearch(ctx.db, historyFilter(query));
    const page = await keysetPage<CaseRow>(caseRepository.history(ctx.db, filter), {
      list: 'cases', timeColumn: 'cases.created_at', idColumn: 'cases.id', idType: 'string',
      order: query.order ?? 'desc', limit: query.limit ?? CASE_PAGE_DEFAULT, cursor: query.cursor,
      keyOf: (r) => [r.created_at, r.id],
    });
    const matches = await caseRepository.countHistory(ctx.db, filter, HISTORY_COUNT_CAP);
    if (viewer) await recordLocationViews(ctx, viewer, page.rows);
    return {
      cases: page.rows.map((r) => presentCase(r)), next_cursor: page.next_cursor, prev_cursor: page.prev_cursor,
      total: Math.min(matches, HISTORY_COUNT_CAP), total_exact: matches <= HISTORY_COUNT_CAP,
    };
  },

  async get(ctx: ServiceContext, id: string, viewer?: Actor & { type: 'user' }) {
    const row = await findCase(ctx.db, id);
    if (viewer) await recordLocationViews(ctx, viewer, [row]);
    return presentCase(row, await etaModel(ctx));
  },

  async timeline(ctx: ServiceContext, id: string): Promise<TimelineEntryDto[]> {
    await findCase(ctx.db, id);
    return (await caseEventRepository.listForCase(ctx.db, id)).map(presentCaseEvent);
  },

  /**
   * Edits a case. Leaving the active state (closed, resolved, pending) frees its ambulance (a
   * pending call also lets go of it: it waits without one);
   * becoming active again or changing the ambulance takes the new one only if available, and
   * that dispatch is told to the patient and the crew with new links (notifyDispatch).
   */
  update: (ctx: ServiceContext, actor: Actor & { type: 'user' }, id: string, input: CaseUpdateInput) =>
    inTransaction(ctx, async (trx, record) => {
      const before = await findCaseForUpdate(trx, id);
      const status = input.status ?? before.status;
      // A call back in the queue waits without an ambulance (contract cases.ts): it lets go of the one it had, as a diverted call does.
      const ambulanceId = input.ambulanceId === undefined ? (status === 'pending' ? null : before.ambulance_id) : input.ambulanceId;
      const heldBefore = heldAmbulance(before.status, before.ambulance_id);
      const heldAfter = heldAmbulance(status, ambulanceId);
      const now = new Date().toISOString();
      let claimed: AmbulanceRow | null = null;
      let named: AmbulanceRow | undefined;
      if (heldBefore !== heldAfter) {
        if (heldAfter != null) claimed = await claimAmbulance(trx, heldAfter);
      } else if (ambulanceId != null && ambulanceId !== before.ambulance_id) {
        // Named on a case that does not hold ambulances: it must still exist (locked, so that it is not deleted meanwhile).
        await ambulanceRepository.lock(trx, ambulanceId);
        named = await ambulanceRepository.findById(trx, ambulanceId);
        if (!named) throw unprocessable(`Ambulance ${ambulanceId} does not exist`);
      }
      const next: CaseFields = {
        patient_name: input.patientName ?? before.patient_name,
        patient_email: input.patientEmail ?? before.patient_email,
        description: input.description ?? before.description,
        case_type: input.caseType === undefined ? before.case_type : input.caseType,
        priority: input.priority ?? Number(before.priority),
        status,
        ambulance_id: ambulanceId,
        closed_at: status === 'closed' || status === 'resolved' ? (before.closed_at ?? now) : null,
        ...(input.intake === undefined ? {} : intakeFields(input.intake)),
      };
      const changed = (Object.keys(next) as (keyof CaseFields)[]).filter((k) => String(next[k] ?? '') !== String(before[k] ?? ''));
      if (changed.length === 0) return presentCase(before);
      // A new ambulance (or the same one taken again) starts a new dispatch: its tracking links show the path from here on.
      // The plate the case shows after this write, for its search text; unknown (read back) only for an ambulance named on leaving active.
      const plate = ambulanceId == null ? null : ambulanceId === before.ambulance_id ? (before.license_plate ?? null) : (claimed ?? named)?.license_plate;
      await caseRepository.update(trx, id, claimed ? { ...next, dispatched_at: now } : next, plate === undefined ? undefined : { before, plate });
      // The assignment follows the ambulance the case holds: the old one ends (on this entry), a new one starts.
      // Only leaving `active` closes, and it ends every unit on the call; taking the ambulance off a case that
      // stays active (or giving it another) cancels that unit's assignment alone, the others stay on.
      const leaving = heldBefore != null && heldBefore !== heldAfter;
      const ended = !leaving ? null : status === 'active'
        ? await endUnit(trx, id, heldBefore, now)
        : await assignments.endAll(trx, id, Number(before.assignment_id), 'closing', now);
      await caseEventRepository.insert(trx, {
        caseId: id, action: 'updated', actor: timelineActor(actor),
        before: { ...Object.fromEntries(changed.map((k) => [k, before[k as keyof CaseRow]])), ...ended?.before },
        after: { ...Object.fromEntries(changed.map((k) => [k, next[k]])), ...ended?.after },
      });
      if (leaving) {
        const freed = ended?.ambulanceIds ?? [heldBefore];
        for (const a of freed) if (await releaseAmbulance(trx, a)) await publishAmbulance(trx, a, record);
        await revokeUnitLinks(trx, record, id, status === 'active' ? heldBefore : null);
      }
      if (claimed) {
        await caseRepository.setAssignment(trx, id, await assignments.start(trx, id, claimed, now));
        await publishAmbulance(trx, claimed.id, record);
      }
      // With one unit before, the one started (or the one ended) is the primary already; with several, the rule decides.
      if ((leaving || claimed) && presentUnits(before).length > 1) await assignments.settlePrimary(trx, id, actor);
      // Read once the case's last write is done: the crew's notice writes beside it, never to it.
      const row = (await caseRepository.findById(trx, id))!;
      // The old links were revoked above: the patient and the crew get the new ambulance's.
      if (claimed) await notifyDispatch(trx, record, ctx, actor, row, claimed, { patient: 'tracking' });
      const dto = presentCase(row);
      record({ type: 'case.updated', case: dto });
      return dto;
    }),

  /** Deletes a case and frees its ambulance; the timeline keeps a record of the deletion. */
  remove: (ctx: ServiceContext, actor: Actor & { type: 'user' }, id: string) =>
    inTransaction(ctx, async (trx, record) => {
      const before = await findCaseForUpdate(trx, id);
      const ended = await assignments.endAll(trx, id, Number(before.assignment_id), 'closing', new Date().toISOString());
      for (const a of ended?.ambulanceIds ?? []) if (await releaseAmbulance(trx, a)) await publishAmbulance(trx, a, record);
      await trackTokenRepository.revokeForCase(trx, id);
      await caseEventRepository.insert(trx, { caseId: id, action: 'deleted', actor: timelineActor(actor), before: { ...presentCase(before) } });
      await caseRepository.delete(trx, id);
      record({ type: 'grants.revoked', caseId: id });
      record({ type: 'case.deleted', id });
    }),

  /** Whether this location link was issued (the case exists and the token is its own), whatever the case's state: for counting its calls. */
  async locationLinkIssued(ctx: ServiceContext, id: string, token: string): Promise<boolean> {
    const row = UUID.test(id) ? await caseRepository.findById(ctx.db, id) : undefined;
    return Boolean(row && locationTokenMatches(row, token));
  },

  /** Whether a patient's location link can share now: the same 404 and 410 as a share; nothing about the case but whether it waits. */
  async locationLinkState(ctx: ServiceContext, id: string, token: string): Promise<LocationLinkState> {
    const row = await findCase(ctx.db, id);
    if (!locationTokenMatches(row, token)) throw notFound('Case not found');
    if (!linkPolicy.sharesLocation(row)) throw gone('This case is no longer active');
    return { active: true, waiting: row.status === 'pending' };
  },

  /**
   * The patient's shared position, with the location link's own token: a wrong or missing
   * token is the same 404 as an unknown case; the true link shares while the call waits or is
   * active (linkPolicy.sharesLocation), and once it ended is told so (410), since its holder is the patient.
   */
  shareLocation: (ctx: ServiceContext, id: string, token: string, input: ShareLocationInput) =>
    inTransaction(ctx, async (trx, record) => {
      const before = await findCaseForUpdate(trx, id);
      if (!locationTokenMatches(before, token)) throw notFound('Case not found');
      if (!linkPolicy.sharesLocation(before)) throw gone('This case is no longer active');
      const at = new Date().toISOString();
      const position = { latitude: round8(input.latitude), longitude: round8(input.longitude), accuracy: input.accuracy ?? null, at };
      if (!(await caseRepository.setLocation(trx, id, position, LOCATION_LINK_STATUSES))) throw gone('This case is no longer active');
      const after = { latitude: position.latitude, longitude: position.longitude, accuracy: position.accuracy };
      await caseEventRepository.insert(trx, {
        caseId: id, action: 'location', actor: { type: 'patient' },
        before: before.location_at ? changedFrom({ latitude: before.latitude, longitude: before.longitude, accuracy: before.location_accuracy }, after) : null,
        after,
      });
      const row = (await caseRepository.findById(trx, id))!;
      record({ type: 'case.location', location: presentCaseLocation(row), case: presentCase(row) });
      return { latitude: position.latitude, longitude: position.longitude, accuracy: position.accuracy, updated_at: at };
    }),
};
