import type { Knex } from 'knex';
import { auditRepository } from '../../db/repositories/auditRepository';
import type { AssignmentRow, CaseEventRow } from '../../db/repositories/types';
import { type AssignmentStatus, TIMED_STEPS, isOpenAssignment, primaryAssignment, stepTimeKey } from '../contract';

/**
 * The invariants "nothing lost, nothing doubled" rests on, read straight from the database
 * (any dialect). Each answers a list of violations, empty when the data is sound; the race
 * property test and the crash script check them after every run and every restart.
 */

const CASE_FIELDS = ['status', 'priority', 'ambulance_id', 'patient_name', 'patient_email', 'description', 'case_type', 'closed_at'] as const;
const ACTORS = new Set(['user', 'patient', 'driver', 'system', 'hospital']);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** A field of a case row, or of the copy of it a timeline entry holds as JSON. */
type Scalar = string | number | boolean | null | undefined;
const json = (v: string | null) => (v ? JSON.parse(v) as Record<string, Scalar> : null);
const same = (a: Scalar, b: Scalar) => (a ?? null) === (b ?? null) || (a != null && b != null && String(a) === String(b));

export interface InvariantReport {
  violations: string[];
  /** What was looked at, for the figures. */
  counted: { ambulances: number; cases: number; activeCases: number; events: number; deletedCases: number };
}

/** The timeline entries that record a change of the case's row (each moves its version on). */
const ROW_CHANGES = new Set(['updated', 'location', 'location.redacted', 'unit.status', 'unit.corrected', 'unit.added', 'unit.cancelled', 'backup.requested', 'destination.set', 'prealert.sent', 'prealert.acknowledged']);

/** The times of an assignment in order, and a status that is the last step it reached (or cancelled, after all of them). */
export function assignmentTimeViolations(a: AssignmentRow): string[] {
  const out: string[] = [];
  let last = '';
  let lastStep: string | null = null;
  for (const step of TIMED_STEPS) {
    const t = a[stepTimeKey(step)];
    if (t == null) continue;
    if (!ISO.test(t)) out.push(`assignment ${a.id}: ${step}_at is not a time (${t})`);
    if (t < last) out.push(`assignment ${a.id}: ${step}_at ${t} is before the step before it (${last})`);
    last = t;
    lastStep = step;
  }
  if (a.cancelled_at != null && a.cancelled_at < last) out.push(`assignment ${a.id}: cancelled_at ${a.cancelled_at} is before its last step (${last})`);
  if (a.status === 'cancelled' ? a.cancelled_at == null : a.status !== lastStep) out.push(`assignment ${a.id} is ${a.status} but its last recorded step is ${lastStep}`);
  return out;
}

/** Every invariant over one consistent read (a single transaction). */
export async function checkInvariants(db: Knex): Promise<InvariantReport> {
  return db.transaction(async (trx) => {
    const ambulances = await auditRepository.ambulances(trx);
    const cases = await auditRepository.cases(trx);
    const events = await auditRepository.caseEvents(trx);
    const assignments = await auditRepository.assignments(trx);
    const violations: string[] = [];
    const ambulanceIds = new Set(ambulances.map((a) => Number(a.id)));

    // 1. An ambulance is held (named as its primary unit) by at most one active case.
    const holders = new Map<number, string[]>();
    for (const c of cases) {
      if (c.status !== 'active' || c.ambulance_id == null) continue;
      const id = Number(c.ambulance_id);
      holders.set(id, [...(holders.get(id) ?? []), c.id]);
    }
    for (const a of ambulances) {
      const held = holders.get(Number(a.id)) ?? [];
      if (held.length > 1) violations.push(`ambulance ${a.id} is held by ${held.length} active cases (${held.join(', ')})`);
      if (a.status !== 'busy' && held.length > 0) violations.push(`ambulance ${a.id} is ${a.status} but active case ${held[0]} holds it`);
    }

    // 1b. An ambulance has at most one open assignment and is busy exactly when it has one; a call
    //     with an open assignment is active.
    const openByAmbulance = new Map<number, AssignmentRow[]>();
    const unitsByCase = new Map<string, AssignmentRow[]>();
    for (const a of assignments) {
      unitsByCase.set(a.case_id, [...(unitsByCase.get(a.case_id) ?? []), a]);
      if (!isOpenAssignment(a.status as AssignmentStatus) || a.ambulance_id == null) continue;
      openByAmbulance.set(Number(a.ambulance_id), [...(openByAmbulance.get(Number(a.ambulance_id)) ?? []), a]);
    }
    const caseById = new Map(cases.map((c) => [c.id, c]));
    for (const a of ambulances) {
      const open = openByAmbulance.get(Number(a.id)) ?? [];
      if (open.length > 1) violations.push(`ambulance ${a.id} has ${open.length} open assignments`);
      if ((a.status === 'busy') !== (open.length === 1)) violations.push(`ambulance ${a.id} is ${a.status} with ${open.length} open assignments`);
      for (const o of open) {
        const c = caseById.get(o.case_id);
        if (c?.status !== 'active') violations.push(`assignment ${o.id} of ambulance ${a.id} is open but its case ${o.case_id} is ${c?.status ?? 'gone'}`);
      }
    }

    // 1e. The primary follows its rule (contract primaryAssignment): the case names it, and while it is
    //     open the case holds its ambulance; an active case with no open unit holds none.
    for (const c of cases) {
      const units = (unitsByCase.get(c.id) ?? []).map((u) => ({ ...u, status: u.status as AssignmentStatus }));
      const primary = primaryAssignment(units);
      if (!primary) continue;
      if (Number(c.assignment_id) !== Number(primary.id)) violations.push(`case ${c.id} names assignment ${c.assignment_id} as its primary, the rule says ${primary.id}`);
      const anyOpen = units.some((u) => isOpenAssignment(u.status));
      if (c.status === 'active' && isOpenAssignment(primary.status) && Number(c.ambulance_id) !== Number(primary.ambulance_id)) {
        violations.push(`active case ${c.id} holds ambulance ${c.ambulance_id}, its primary unit is ${primary.ambulance_id}`);
      }
      if (c.status === 'active' && !anyOpen && c.ambulance_id != null) violations.push(`active case ${c.id} holds ambulance ${c.ambulance_id} with no unit on it`);
    }
    // 1c. An assignment's times never decrease, and its status is its last step reached.
    for (const a of assignments) violations.push(...assignmentTimeViolations(a));

    // 1d. An ambulance is on one call at a time: its assignments, from dispatch to clear or
    //     cancellation (open ones on to now), never overlap.
    const byAmbulance = new Map<number, AssignmentRow[]>();
    for (const a of assignments) if (a.ambulance_id != null) byAmbulance.set(Number(a.ambulance_id), [...(byAmbulance.get(Number(a.ambulance_id)) ?? []), a]);
    for (const list of byAmbulance.values()) {
      list.sort((x, y) => x.dispatched_at.localeCompare(y.dispatched_at));
      for (let i = 1; i < list.length; i++) {
        const [prev, next] = [list[i - 1], list[i]];
        const prevEnd = prev.cleared_at ?? prev.cancelled_at;
        if (prevEnd == null || prevEnd > next.dispatched_at) violations.push(`assignments ${prev.id} and ${next.id} of ambulance ${prev.ambulance_id} overlap`);
      }
    }

    // 2. No case references a deleted ambulance.
    for (const c of cases) {
      if (c.ambulance_id != null && !ambulanceIds.has(Number(c.ambulance_id))) violations.push(`case ${c.id} references deleted ambulance ${c.ambulance_id}`);
    }

    // 3. Every state change has a timeline entry with its actor and time: replaying a case's
    //    timeline gives its current fields, and its version counts its changes.
    const byCase = new Map<string, CaseEventRow[]>();
    for (const e of events) {
      if (!ACTORS.has(e.actor_type)) violations.push(`event ${e.id} has no valid actor (${e.actor_type})`);
      if (e.actor_type === 'user' && e.actor_id == null) violations.push(`event ${e.id} by a user names no user`);
      if (!ISO.test(e.created_at ?? '')) violations.push(`event ${e.id} has no valid time (${e.created_at})`);
      byCase.set(e.case_id, [...(byCase.get(e.case_id) ?? []), e]);
    }
    const caseIds = new Set(cases.map((c) => c.id));
    for (const c of cases) {
      const timeline = byCase.get(c.id) ?? [];
      if (timeline[0]?.action !== 'created') {
        violations.push(`case ${c.id} has no 'created' entry first`);
        continue;
      }
      if (timeline.filter((e) => e.action === 'created').length !== 1) violations.push(`case ${c.id} has several 'created' entries`);
      const changes = timeline.filter((e) => ROW_CHANGES.has(e.action)).length;
      if (Number(c.version) !== 1 + changes) violations.push(`case ${c.id} is at version ${c.version} but its timeline holds ${changes} changes`);
      const replay: Record<string, Scalar> = { closed_at: null, ...json(timeline[0].after) };
      let location: Record<string, Scalar> | null = null;
      for (const e of timeline.slice(1)) {
        // A corrected clear moves the call's closed_at with it (on its unit.corrected entry).
        if (e.action === 'updated' || e.action === 'unit.corrected') Object.assign(replay, json(e.after));
        if (e.action === 'location') location = json(e.after);
        if (e.action === 'deleted') violations.push(`case ${c.id} exists after its 'deleted' entry`);
      }
      for (const f of CASE_FIELDS) {
        if (!same(replay[f], c[f])) violations.push(`case ${c.id}: ${f} is ${JSON.stringify(c[f])} but its timeline says ${JSON.stringify(replay[f])}`);
      }
      if (location && (!same(Number(location.latitude), Number(c.latitude)) || !same(Number(location.longitude), Number(c.longitude)))) {
        violations.push(`case ${c.id}: its location differs from the last one on its timeline`);
      }
    }
    let deletedCases = 0;
    for (const [caseId, timeline] of byCase) {
      if (caseIds.has(caseId)) continue;
      deletedCases += 1;
      if (timeline.at(-1)?.action !== 'deleted') violations.push(`case ${caseId} is gone but its timeline does not end with 'deleted'`);
    }

    return {
      violations,
      counted: {
        ambulances: ambulances.length,
        cases: cases.length,
        activeCases: cases.filter((c) => c.status === 'active').length,
        events: events.length,
        deletedCases,
      },
    };
  });
}
