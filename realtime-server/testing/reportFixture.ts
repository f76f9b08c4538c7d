import type { Knex } from 'knex';
import type { Capability } from '../contract/capability';
import type { AssignmentTimes, ReportCall } from '../services/responseTimes';

/**
 * Hand-made calls whose report figures are known (reportService.test.ts states them), for the
 * period 2026-10-01 … 2026-10-02 in Asia/Kolkata (UTC+05:30): from=2026-10-01&to=2026-10-03&tz=Asia/Kolkata
 * is [2026-09-30T18:30Z, 2026-10-02T18:30Z). 2026-10-01 is a Thursday.
 */
export const FIXTURE_PERIOD = { from: '2026-09-30T18:30:00.000Z', to: '2026-10-02T18:30:00.000Z', tz: 'Asia/Kolkata' };

const iso = (ms: number) => new Date(ms).toISOString();
/** An instant given in IST (+05:30). */
const ist = (local: string) => Date.parse(`${local}+05:30`);

type Steps = [dispatched: number, enRoute: number | null, onScene: number | null, transporting: number | null, atHospital: number | null, cleared: number | null, cancelled?: number];
/** A unit's steps with its capability when dispatched (without one: the column's default, ALS). */
type UnitSteps = { capability: Capability; steps: Steps };
const unit = (capability: Capability, ...steps: Steps): UnitSteps => ({ capability, steps });

export interface FixtureCall extends ReportCall { id: string; assignments: (AssignmentTimes & { cancelled_at: string | null })[] }

/** A call at `at` whose assignments' steps are seconds after the call (null: skipped or not reached). */
function call(id: string, priority: number, at: number, ...assignments: (Steps | UnitSteps)[]): FixtureCall {
  const t = (s: number | null | undefined) => (s == null ? null : iso(at + s * 1000));
  return {
    id, priority, call_received_at: iso(at),
    assignments: assignments.map((u) => {
      const [d, e, o, tr, h, c, x] = Array.isArray(u) ? u : u.steps;
      return {
        dispatched_at: t(d)!, en_route_at: t(e), on_scene_at: t(o), transporting_at: t(tr), at_hospital_at: t(h), cleared_at: t(c), cancelled_at: t(x),
        ...(Array.isArray(u) ? {} : { capability: u.capability }),
      };
    }),
  };
}

const morning = (i: number) => ist(`2026-10-01T10:${String(i * 5).padStart(2, '0')}:00`);

/** Inside the period. */
export const FIXTURE_CALLS: FixtureCall[] = [
  // Priority 1: ten calls that reach the scene 300 … 1200 s after the call, on 2026-10-01.
  call('p1-00', 1, morning(0), [60, 120, 300, 1200, 2400, 3600]),
  call('p1-01', 1, morning(1), [40, 100, 420, 1300, 2500, 3900]),
  call('p1-02', 1, morning(2), [90, 150, 480, 1500, 2700, 4200]),
  call('p1-03', 1, morning(3), [50, null, 540, 1400, 2600, 3800]), // en route skipped
  call('p1-04', 1, morning(4), [70, 110, 600, 1600, 2800, 4000]),
  call('p1-05', 1, morning(5), [30, 80, 660, null, null, 2000]), // treated on scene: on scene → cleared
  call('p1-06', 1, morning(6), [80, 140, 720, 1700, 2900, 4300]),
  // Reassigned: the first ambulance is cancelled on its way, the second arrives.
  call('p1-07', 1, morning(7), [20, 60, null, null, null, null, 200], [240, 300, 840, 1800, 3000, 4400]),
  call('p1-08', 1, morning(8), [100, 160, 960, 1900, 3100, 4500]),
  call('p1-09', 1, morning(9), [110, 170, 1200, 2000, 3200, 4600]),
  // 2026-10-02: cancelled before arrival, and a waiting call never dispatched.
  call('p1-10', 1, ist('2026-10-02T09:00:00'), [45, 95, null, null, null, null, 150]),
  call('p1-11', 1, ist('2026-10-02T09:30:00')),
  // Priority 2 (target 40 min): the period's first instant, a call on the previous UTC day, one spanning midnight, one past target.
  call('p2-from', 2, ist('2026-10-01T00:00:00'), [60, null, 600, null, null, 1200]),
  call('p2-utc-day-before', 2, ist('2026-10-01T00:30:00'), [60, null, 900, null, null, 1500]),
  call('p2-midnight', 2, ist('2026-10-01T23:50:00'), [60, null, 1200, null, null, 1800]),
  call('p2-late', 2, ist('2026-10-02T23:30:00'), [60, null, 3000, null, null, 3600]),
];

/** Just outside the period: 23:30 on the day before (18:00Z) and 00:10 on the day after (18:40Z). */
export const FIXTURE_OUTSIDE: FixtureCall[] = [
  call('out-before', 1, ist('2026-09-30T23:30:00'), [60, 120, 300, null, null, 900]),
  call('out-after', 1, ist('2026-10-03T00:10:00'), [60, 120, 300, null, null, 900]),
];

/**
 * Issue 29, several units on one call: three calls on Monday 2026-10-05 in Asia/Kolkata
 * (from=2026-10-05&to=2026-10-06&tz=Asia/Kolkata is [2026-10-04T18:30Z, 2026-10-05T18:30Z)),
 * whose figures responseTimes.test.ts states, with the default PRIORITY_CLOCK_STOP (1=first, 2–4=transport).
 */
export const MULTI_UNIT_PERIOD = { from: '2026-10-04T18:30:00.000Z', to: '2026-10-05T18:30:00.000Z', tz: 'Asia/Kolkata' };
export const MULTI_UNIT_CALLS: FixtureCall[] = [
  // (a) P1: a responder car on scene at 300 s, then an ALS ambulance at 600 s that conveys.
  // first_response 300, transport_response 600; response 300 (P1 stops at the first arrival).
  call('mu-a-p1-car-then-als', 1, ist('2026-10-05T10:00:00'),
    unit('responder', 30, 45, 300, null, null, 1800),
    unit('als', 60, 90, 600, 1500, 2400, 3600)),
  // (b) P2: an ALS ambulance alone, on scene at 900 s, conveys: 900 for all three.
  call('mu-b-p2-als', 2, ist('2026-10-05T11:00:00'),
    unit('als', 60, 120, 900, 1800, 2700, 3600)),
  // (c) P2 nobody conveyed: a car on scene at 420 s, a BLS ambulance at 1500 s that leaves the patient at home.
  // first_response 420, transport_response 1500; response 420 (no unit conveyed: the first arrival stops the clock).
  call('mu-c-p2-car-then-bls-no-transport', 2, ist('2026-10-05T12:00:00'),
    unit('responder', 30, 60, 420, null, null, 2400),
    unit('bls', 90, 120, 1500, null, null, 2100)),
];

type FixtureUnit = { id: number; license_plate: string };

/**
 * Writes calls as cases and assignments, on ambulance `ambulance`, or for an assignment with a
 * capability on `units[capability]` when given (an assignment without `cancelled_at` and
 * `cleared_at` is left open: none here).
 */
export async function insertFixtureCalls(db: Knex, calls: FixtureCall[], ambulance: FixtureUnit, units: Partial<Record<Capability, FixtureUnit>> = {}) {
  for (const c of calls) {
    await db('cases').insert({
      id: c.id, description: `Report fixture ${c.id}`, status: c.assignments.length ? 'resolved' : 'pending', patient_name: 'Fixture', patient_email: 'fixture@example.com',
      created_at: c.call_received_at, updated_at: c.call_received_at, priority: c.priority, call_received_at: c.call_received_at,
    });
    for (const a of c.assignments) {
      const u = (a.capability && units[a.capability as Capability]) || ambulance;
      await db('assignments').insert({ case_id: c.id, ambulance_id: u.id, license_plate: u.license_plate, status: a.cancelled_at ? 'cancelled' : 'cleared', ...a });
    }
  }
}

/**
 * Issue 30, the handover report: Monday 2026-10-12 in Asia/Kolkata (from=2026-10-12&to=2026-10-13&tz=Asia/Kolkata
 * is [2026-10-11T18:30Z, 2026-10-12T18:30Z)), two hospitals, whose figures reports.test.ts and
 * handoverReport.test.ts state with the default HANDOVER_TARGETS (15, 30, 45, 60 minutes):
 *
 * - City General: handovers of 10 and 40 minutes, and an arrival with none (handover not pressed);
 *   pre-alerts acknowledged after 60 s and 240 s, and one to it for a unit then sent on to Royal
 *   Infirmary, never acknowledged (it counts for City General, where it was sent).
 * - Royal Infirmary: handovers of 20 and 70 minutes (the 20 the re-routed unit's); a pre-alert acknowledged after 30 s.
 * - An arrival with no destination recorded, no handover.
 * - Left out: an arrival 10 minutes before the period (its handover inside it) and a pre-alert sent
 *   before the period; in: an arrival at the period's last minute whose handover is after its end.
 */
export const HANDOVER_PERIOD = { from: '2026-10-11T18:30:00.000Z', to: '2026-10-12T18:30:00.000Z', tz: 'Asia/Kolkata' };
export const HANDOVER_HOSPITALS = ['City General', 'Royal Infirmary'] as const;

type HandoverArrival = {
  /** Index into HANDOVER_HOSPITALS, or null: no destination. */
  hospital: 0 | 1 | null;
  /** When the unit arrived at hospital (IST). */
  arrived: string;
  /** Minutes from arrival to handover; null: none recorded. */
  handoverMin: number | null;
  /** Pre-alerts: to which hospital, minutes before arrival, seconds to acknowledgement (null: never). */
  prealerts?: { hospital: 0 | 1; beforeMin: number; ackS: number | null }[];
};

export const HANDOVER_ARRIVALS: HandoverArrival[] = [
  { hospital: 0, arrived: '2026-10-12T08:00:00', handoverMin: 10, prealerts: [{ hospital: 0, beforeMin: 12, ackS: 60 }] },
  { hospital: 0, arrived: '2026-10-12T11:00:00', handoverMin: 40, prealerts: [{ hospital: 0, beforeMin: 8, ackS: 240 }] },
  { hospital: 0, arrived: '2026-10-12T14:00:00', handoverMin: null },
  // Re-routed: pre-alerted to City General, then taken to Royal Infirmary.
  { hospital: 1, arrived: '2026-10-12T09:30:00', handoverMin: 20, prealerts: [{ hospital: 0, beforeMin: 15, ackS: null }] },
  // Arrived at the period's last minute: handed over after the period, still this period's.
  { hospital: 1, arrived: '2026-10-12T23:59:00', handoverMin: 70, prealerts: [{ hospital: 1, beforeMin: 10, ackS: 30 }] },
  { hospital: null, arrived: '2026-10-12T16:00:00', handoverMin: null },
];

/** Just outside the period: arrived before it (handed over inside it), and pre-alerted before it. */
export const HANDOVER_OUTSIDE: HandoverArrival[] = [
  { hospital: 0, arrived: '2026-10-11T23:50:00', handoverMin: 30, prealerts: [{ hospital: 0, beforeMin: 15, ackS: 20 }] },
];

/** Writes the hospitals, and each arrival as a call with one cleared assignment (of no ambulance, as a deleted one's) and its pre-alerts. */
export async function insertHandoverFixture(db: Knex, arrivals: HandoverArrival[] = [...HANDOVER_ARRIVALS, ...HANDOVER_OUTSIDE]) {
  const created = '2026-10-01T00:00:00.000Z';
  const hospitalIds: number[] = [];
  for (const [i, name] of HANDOVER_HOSPITALS.entries()) {
    const rows: unknown[] = await db('hospitals').insert({
      name, latitude: 17.38 + i / 100, longitude: 78.48, status_updated_at: created, created_at: created, updated_at: created,
    }).returning('id');
    const r = rows[0] as { id: number } | number;
    hospitalIds.push(typeof r === 'object' ? r.id : r);
  }
  for (const [i, a] of arrivals.entries()) {
    const arrived = ist(a.arrived);
    const at = (minutes: number) => iso(arrived + minutes * 60_000);
    const id = `handover-${String(i).padStart(2, '0')}`;
    await db('cases').insert({
      id, description: `Handover fixture ${i}`, status: 'resolved', patient_name: 'Fixture', patient_email: 'fixture@example.com',
      created_at: at(-40), updated_at: at(-40), priority: 2, call_received_at: at(-40),
    });
    const cleared = (a.handoverMin ?? 0) + 5;
    const rows: unknown[] = await db('assignments').insert({
      case_id: id, ambulance_id: null, license_plate: 'KA01 H 1', status: 'cleared',
      dispatched_at: at(-39), en_route_at: at(-38), on_scene_at: at(-30), transporting_at: at(-20), at_hospital_at: at(0),
      handover_at: a.handoverMin == null ? null : at(a.handoverMin), cleared_at: at(cleared),
      ...(a.hospital == null ? {} : {
        destination_hospital_id: hospitalIds[a.hospital], destination_name: HANDOVER_HOSPITALS[a.hospital], destination_reason: 'closest', destination_set_at: at(-25),
      }),
    }).returning('id');
    const r = rows[0] as { id: number } | number;
    const assignmentId = typeof r === 'object' ? r.id : r;
    for (const p of a.prealerts ?? []) {
      const sent = arrived - p.beforeMin * 60_000;
      await db('prealerts').insert({
        assignment_id: assignmentId, case_id: id, hospital_id: hospitalIds[p.hospital], activation: 'none', content: '{}',
        sent_at: iso(sent), acknowledged_at: p.ackS == null ? null : iso(sent + p.ackS * 1000),
      });
    }
  }
  return { hospitalIds };
}
