/**
 * Demo history (issue 17): the past calls `SEED=demo` creates on a first start, so that a new
 * user sees full reports at once. Every call is marked `demo`, is over (resolved or closed) and
 * follows this model (docs/user-guide.md "Demo history" states it for users):
 *
 * - Arrivals: Poisson in each local hour, with the hour's rate from DAY_CURVE scaled to
 *   CALLS_PER_DAY (≈40 a day for the demo fleet: 7 ambulances and a car): quietest at 4 am, peaks late morning and early evening.
 * - Priority 1 10 %, 2 45 %, 3 35 %, 4 10 %; the emergency type agrees with the contract's
 *   priorityForType (1: Heart Attack/Stroke, 2: Accident/Injury/Medical Emergency, 3 and 4: Other
 *   with a short description — an operator set 4 by hand).
 * - The patient within 10 km of the centre, denser towards it.
 * - Call processing 30–120 s, then the nearest free ambulance (a unit that can convey: any but a
 *   responder car) by straight line from its station, one meeting the priority's need when one is
 *   free (ALS or CCT for 1 and 2, as contract DEFAULT_PRIORITY_NEEDS; units return to station
 *   between calls). With none free the call waits, first come first served, until one clears: that
 *   wait is part of its call processing, as it would be live.
 * - Several units on a call (issue 29): to a priority 1 call a free responder car goes as well, at
 *   once, when it would be there CAR_MIN_GAIN_S before the ambulance (about a third of them with the
 *   demo fleet; it then usually arrives first). It treats until the ambulance is there, hands over
 *   3–20 min later and clears; it never conveys. A big incident, SECOND_AMBULANCE_SHARE of priority 2
 *   calls, gets a second ambulance 30 s–10 min after the first (the nearest other one, when free).
 *   Every unit books its own time: no unit is on two calls at once.
 * - Turnout 20–120 s (a car 15–90 s); travel = distance × 1.3 ÷ ~30 km/h (a car 25 % faster; with
 *   noise); on scene 10–35 min; each ambulance transports (P1 90 %, P2 80 %, P3 55 %, P4 20 %)
 *   8–25 min to hospital with 15–45 min turnaround there, otherwise treats on scene (on_scene →
 *   cleared). Durations are lognormal, clamped.
 * - ≈4 % cancelled before any unit arrives (every unit stood down, the call closes); ≈5 % of crews
 *   never press en route.
 * - The case names its primary unit as contract primaryAssignment does on a call that is over: the
 *   last that conveyed, else the last (by id: the rows are inserted in dispatch order).
 * - Calls still running at `now` are left out: nothing is open, nothing shows as live.
 *
 * Pure and deterministic: `now` and `random` are given (mulberry32 for a seeded one).
 */

export interface DemoAmbulance { id: number; license_plate: string; latitude: number; longitude: number; capability?: string }

/** A cases row (every NOT NULL column; `assignment_id` is set after the assignments are inserted). */
export interface DemoCaseRow {
  id: string; description: string; status: 'resolved' | 'closed'; case_type: string; priority: number;
  patient_name: string; patient_email: string; operator_id: null; ambulance_id: number;
  call_received_at: string; created_at: string; updated_at: string; closed_at: string; dispatched_at: string;
  intake_latitude: number; intake_longitude: number; intake_address: string; intake_source: 'coordinates';
  location_token_hash: null; version: 1; demo: true;
}

export interface DemoAssignmentRow {
  case_id: string; ambulance_id: number; license_plate: string; capability: string; status: 'cleared' | 'cancelled';
  dispatched_at: string; en_route_at: string | null; on_scene_at: string | null; transporting_at: string | null;
  at_hospital_at: string | null; handover_at: string | null; cleared_at: string | null; cancelled_at: string | null;
}

export interface DemoHistory { cases: DemoCaseRow[]; assignments: DemoAssignmentRow[] }

export interface DemoHistoryOptions {
  now: Date;
  days: number;
  ambulances: DemoAmbulance[];
  /** Uniform in [0, 1). */
  random: () => number;
  centre?: { latitude: number; longitude: number };
  /** The centre's offset from UTC, for the hour-of-day curve (Hyderabad: +5:30, no daylight saving). */
  utcOffsetMinutes?: number;
}

/** Relative call rate per local hour 0–23: quiet at night (4 am the least), peaks at 10–12 and 18–20. */
export const DAY_CURVE = [
  0.45, 0.35, 0.3, 0.25, 0.2, 0.3, 0.55, 0.85, 1.15, 1.4, 1.6, 1.65,
  1.55, 1.35, 1.25, 1.25, 1.35, 1.5, 1.65, 1.6, 1.35, 1.05, 0.8, 0.6,
] as const;
export const CALLS_PER_DAY = 40;
export const PRIORITY_MIX = [[1, 0.10], [2, 0.45], [3, 0.35], [4, 0.10]] as const;
export const CANCEL_SHARE = 0.04;
export const SKIP_EN_ROUTE_SHARE = 0.05;
const TRANSPORT_SHARE: Record<number, number> = { 1: 0.9, 2: 0.8, 3: 0.55, 4: 0.2 };
/**
 * A free responder car goes to a priority 1 call with the ambulance when, by the typical turnout and
 * speed, it would be there at least this much sooner (about a third of them with the demo fleet).
 */
export const CAR_MIN_GAIN_S = 90;
/** Priority 2 calls big enough (several patients) for a second ambulance. */
export const SECOND_AMBULANCE_SHARE = 0.015;
/** A car's speed over an ambulance's. */
const CAR_SPEED_FACTOR = 1.25;
/** The types the dispatch form offers, by the priority priorityForType gives them. */
const TYPES: Record<number, string[]> = { 1: ['Heart Attack', 'Stroke'], 2: ['Accident', 'Injury', 'Medical Emergency'] };
const OTHER_DESCRIPTIONS = [
  'Fall at home', 'Breathing difficulty', 'Abdominal pain', 'High fever', 'Dizziness', 'Back pain',
  'Minor burn', 'Allergic rash', 'Vomiting', 'Cut to the hand', 'Diabetic check', 'Chest discomfort',
];
const RADIUS_KM = 10;
const SPEED_KMH = 30;
const ROAD_FACTOR = 1.3;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** A tiny seeded PRNG (mulberry32): the same seed gives the same history. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sampler(random: () => number) {
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return {
    /** Knuth's method: fine for the small hourly rates here. */
    poisson(lambda: number) {
      const limit = Math.exp(-lambda);
      let k = 0;
      for (let p = random(); p > limit; p *= random()) k += 1;
      return k;
    },
    /** Lognormal seconds around `median`, kept within [min, max]. */
    seconds: (median: number, sigma: number, min: number, max: number) => Math.min(max, Math.max(min, median * Math.exp(sigma * normal()))),
    pick: <T>(items: readonly T[]) => items[Math.floor(random() * items.length)],
    chance: (p: number) => random() < p,
    /** A UUIDv4 from the generator, so that ids repeat with the seed. */
    uuid() {
      const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
      hex[12] = '4';
      hex[16] = (8 + Math.floor(random() * 4)).toString(16);
      const s = hex.join('');
      return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    },
  };
}

const toRad = (d: number) => (d * Math.PI) / 180;
function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const h = Math.sin(toRad(b.latitude - a.latitude) / 2) ** 2
    + Math.cos(toRad(a.latitude)) * Math.cos(toRad(b.latitude)) * Math.sin(toRad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
const iso = (ms: number) => new Date(Math.round(ms / 1000) * 1000).toISOString();

/** The local hour (0–23) of an instant. */
export const localHour = (ms: number, utcOffsetMinutes: number) => new Date(ms + utcOffsetMinutes * 60_000).getUTCHours();

/** Whether a unit of this capability can convey a patient: every one but a responder car (contract canTransport). */
const conveys = (a: DemoAmbulance) => (a.capability ?? 'als') !== 'responder';
/** Whether a conveying unit meets a priority's need (contract DEFAULT_PRIORITY_NEEDS: ALS for 1 and 2, BLS for 3 and 4; bls < als < cct). */
const meetsNeed = (a: DemoAmbulance, priority: number) => priority > 2 || ['als', 'cct'].includes(a.capability ?? 'als');

/**
 * The call's primary unit, as contract primaryAssignment picks it on a call that is over: the last
 * (by id, here the order of insertion) that conveyed the patient, else the last of all.
 */
export function demoPrimary<A extends Pick<DemoAssignmentRow, 'status' | 'transporting_at'>>(units: readonly A[]): A {
  return units.findLast((a) => a.status === 'cleared' && a.transporting_at != null) ?? units[units.length - 1];
}

export function generateDemoHistory(o: DemoHistoryOptions): DemoHistory {
  const s = sampler(o.random);
  const centre = o.centre ?? { latitude: 17.385, longitude: 78.4867 };
  const offsetMs = (o.utcOffsetMinutes ?? 330) * 60_000;
  const end = o.now.getTime();
  const start = end - o.days * DAY_MS;
  const curveSum = DAY_CURVE.reduce((a, b) => a + b, 0);

  // Arrivals: each local hour's count, spread evenly over it.
  const arrivals: number[] = [];
  for (let slot = Math.floor((start + offsetMs) / HOUR_MS) * HOUR_MS - offsetMs; slot < end; slot += HOUR_MS) {
    const n = s.poisson((CALLS_PER_DAY * DAY_CURVE[localHour(slot, o.utcOffsetMinutes ?? 330)]) / curveSum);
    for (let i = 0; i < n; i += 1) {
      const t = slot + o.random() * HOUR_MS;
      if (t >= start && t < end) arrivals.push(t);
    }
  }
  arrivals.sort((a, b) => a - b);

  // When each unit is free again: every unit sent, ambulance or car, books its own until its end.
  const busyUntil = new Map(o.ambulances.map((a) => [a.id, -Infinity]));
  const ambulances = o.ambulances.filter(conveys);
  const cars = o.ambulances.filter((a) => !conveys(a));
  const cases: DemoCaseRow[] = [];
  const assignments: DemoAssignmentRow[] = [];
  let n = 0;
  for (const received of arrivals) {
    if (ambulances.length === 0) break;
    const r = o.random();
    let cum = 0;
    const priority = PRIORITY_MIX.find(([, share]) => (cum += share) > r)?.[0] ?? 3;
    const caseType = TYPES[priority] ? s.pick(TYPES[priority]) : 'Other';
    const description = caseType === 'Other' ? s.pick(OTHER_DESCRIPTIONS) : caseType;
    const bearing = o.random() * 2 * Math.PI;
    const km = RADIUS_KM * o.random();
    const place = {
      latitude: round6(centre.latitude + (km * Math.cos(bearing)) / 111.32),
      longitude: round6(centre.longitude + (km * Math.sin(bearing)) / (111.32 * Math.cos(toRad(centre.latitude)))),
    };
    const nearest = (units: DemoAmbulance[]) => units.reduce((best, a) => (distanceKm(a, place) < distanceKm(best, place) ? a : best));
    /** A unit sent at `dispatched`: its turnout, then travel at its speed from its station. */
    const sent = (unit: DemoAmbulance, dispatched: number, car: boolean) => {
      const turnout = car ? 1000 * s.seconds(30, 0.4, 15, 90) : 1000 * s.seconds(50, 0.5, 20, 120);
      const speed = SPEED_KMH * (car ? CAR_SPEED_FACTOR : 1) * s.seconds(1, 0.2, 0.6, 1.5);
      const enRoute = dispatched + turnout;
      const onScene = enRoute + Math.max(60_000, (distanceKm(unit, place) * ROAD_FACTOR / speed) * HOUR_MS);
      const row: DemoAssignmentRow = {
        case_id: '', ambulance_id: unit.id, license_plate: unit.license_plate, capability: unit.capability ?? 'als', status: 'cleared',
        dispatched_at: iso(dispatched), en_route_at: s.chance(SKIP_EN_ROUTE_SHARE) ? null : iso(enRoute),
        on_scene_at: null, transporting_at: null, at_hospital_at: null, handover_at: null, cleared_at: null, cancelled_at: null,
      };
      return { unit, row, dispatched, enRoute, onScene, car, over: onScene };
    };
    /**
     * The ambulance for the call among `from`: after `ready`, the nearest free then that meets the
     * priority's need, else the nearest free; none free, the first to clear.
     */
    const dispatchAmbulance = (from: DemoAmbulance[], ready: number) => {
      const dispatched = Math.max(ready, Math.min(...from.map((a) => busyUntil.get(a.id)!)));
      const free = from.filter((a) => busyUntil.get(a.id)! <= dispatched);
      const fit = free.filter((a) => meetsNeed(a, priority));
      return sent(nearest(fit.length ? fit : free), dispatched, false);
    };

    // Dispatch: after call processing, the ambulance; to a priority 1 call also a free car, at once, when it
    // would be there CAR_MIN_GAIN_S before the ambulance (by the typical turnout and speed).
    const ready = received + 1000 * s.seconds(60, 0.35, 30, 120);
    const first = dispatchAmbulance(ambulances, ready);
    const units = [first];
    const freeCars = cars.filter((c) => busyUntil.get(c.id)! <= ready);
    if (priority === 1 && freeCars.length) {
      const car = nearest(freeCars);
      const expected = (unit: DemoAmbulance, dispatched: number, turnoutS: number, kmh: number) => dispatched + 1000 * turnoutS + (distanceKm(unit, place) * ROAD_FACTOR / kmh) * HOUR_MS;
      const gain = expected(first.unit, first.dispatched, 50, SPEED_KMH) - expected(car, ready, 30, SPEED_KMH * CAR_SPEED_FACTOR);
      if (gain >= CAR_MIN_GAIN_S * 1000) units.unshift(sent(car, ready, true));
    }
    // A big incident (several patients): a second ambulance follows once the size is known.
    const others = ambulances.filter((a) => a !== first.unit);
    if (priority === 2 && others.length && s.chance(SECOND_AMBULANCE_SHARE)) {
      units.push(dispatchAmbulance(others, first.dispatched + 1000 * s.seconds(120, 0.5, 30, 600)));
    }
    const crews = units.filter((u) => !u.car);
    const firstArrival = Math.min(...units.map((u) => u.onScene));
    const lastDispatch = Math.max(...units.map((u) => u.dispatched));

    if (s.chance(CANCEL_SHARE) && firstArrival > lastDispatch) {
      // Cancelled before anyone arrived (the caller rang back, another service took the patient): every unit stood down.
      const over = lastDispatch + o.random() * (firstArrival - lastDispatch);
      for (const u of units) {
        if (over < u.enRoute) u.row.en_route_at = null;
        u.row.status = 'cancelled';
        u.row.cancelled_at = iso(over);
        u.over = over;
      }
    } else {
      for (const u of crews) {
        u.row.on_scene_at = iso(u.onScene);
        const leaves = u.onScene + 1000 * s.seconds(18 * 60, 0.3, 10 * 60, 35 * 60);
        if (s.chance(TRANSPORT_SHARE[priority])) {
          const atHospital = leaves + 1000 * s.seconds(14 * 60, 0.3, 8 * 60, 25 * 60);
          u.over = atHospital + 1000 * s.seconds(25 * 60, 0.3, 15 * 60, 45 * 60);
          u.row.transporting_at = iso(leaves);
          u.row.at_hospital_at = iso(atHospital);
        } else {
          u.over = leaves;
        }
      }
      // A car treats until the ambulance is there, hands over and clears (it never conveys).
      const crewArrives = Math.min(...crews.map((u) => u.onScene));
      for (const u of units.filter((x) => x.car)) {
        u.row.on_scene_at = iso(u.onScene);
        u.over = Math.max(u.onScene, crewArrives) + 1000 * s.seconds(8 * 60, 0.4, 3 * 60, 20 * 60);
      }
      for (const u of units) u.row.cleared_at = iso(u.over);
    }
    for (const u of units) busyUntil.set(u.unit.id, Math.max(busyUntil.get(u.unit.id)!, u.over));
    const over = Math.max(...units.map((u) => u.over));
    if (over >= end) continue; // still running now: not history

    n += 1;
    const id = s.uuid();
    const tag = String(n).padStart(4, '0');
    // Inserted in dispatch order (the car first when sent with the ambulance): the ids keep that order.
    const rows = units.map((u) => u.row).sort((a, b) => a.dispatched_at.localeCompare(b.dispatched_at));
    for (const row of rows) {
      row.case_id = id;
      assignments.push(row);
    }
    const primary = demoPrimary(rows);
    cases.push({
      id, description, status: rows.every((a) => a.status === 'cancelled') ? 'closed' : 'resolved', case_type: caseType, priority,
      patient_name: `Demo Patient ${tag}`, patient_email: `patient${tag}@demo.lifeline.invalid`,
      operator_id: null, ambulance_id: primary.ambulance_id,
      call_received_at: iso(received), created_at: iso(received), updated_at: iso(over), closed_at: iso(over), dispatched_at: rows[0].dispatched_at,
      intake_latitude: place.latitude, intake_longitude: place.longitude, intake_address: `${place.latitude}, ${place.longitude}`,
      intake_source: 'coordinates', location_token_hash: null, version: 1, demo: true,
    });
  }
  return { cases, assignments };
}

/** Each demo case's 'created' timeline entry: by the system, holding the fields the case has (its timeline replays to it). */
export function demoCreatedEntries(cases: DemoCaseRow[]) {
  return cases.map((c) => ({
    case_id: c.id, action: 'created', actor_type: 'system', actor_id: null, before: null, created_at: c.created_at,
    after: JSON.stringify({
      status: c.status, priority: c.priority, call_received_at: c.call_received_at, patient_name: c.patient_name,
      patient_email: c.patient_email, description: c.description, case_type: c.case_type, ambulance_id: c.ambulance_id,
      closed_at: c.closed_at, intake_latitude: c.intake_latitude, intake_longitude: c.intake_longitude,
      intake_address: c.intake_address, intake_source: c.intake_source, demo: true,
    }),
  }));
}
