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
 *   noise); on scene 10–35 min; each ambulance transports (P1 90 %, P2 80 %, P3 55 %, P4 20 %),
 *   otherwise treats on scene (on_scene → cleared). Durations are lognormal, clamped.
 * - The hospital end (issue 30), with the seed's hospitals: a transport's destination is the
 *   hospital closest to the patient (reason `closest`), but a Stroke goes to the nearest stroke
 *   centre, a Heart Attack to the nearest PCI centre, and MAJOR_TRAUMA_SHARE of Accidents and
 *   Injuries to the nearest trauma centre (reason `specialty` when that is not the closest); a few
 *   patients of priority 2–4 (PATIENT_CHOICE_SHARE) choose another (`patient_choice`). The
 *   destination is set as the unit leaves the scene; the drive there is its distance at the same
 *   speed, 3 min at least (with no hospitals given: 8–25 min, and no destination). Handover
 *   (eTimes.12) has a long tail, as English ambulances know it (drawHandoverS): most 10–20 min
 *   after arrival, HANDOVER_TAIL_SHARE (about 1 in 4) past 30, a few past 60; the crew clears 5–20 min
 *   after the handover. An ATMIST pre-alert goes ahead of about one conveyed patient in ten
 *   (PREALERT_SHARE: half of priority 1, few of the rest), 1–5 min into the drive, with the
 *   activation of its type (Stroke `stroke`, Heart Attack `stemi` or after an arrest
 *   `cardiac_arrest`, Accident and Injury `trauma`, Medical Emergency `sepsis`); the hospital
 *   acknowledges most within 1–3 min, LATE_ACK_SHARE later and NEVER_ACK_SHARE never (those two
 *   were told to the dispatchers at PREALERT_ACK_AFTER_S, as the live sweep would have).
 * - ≈4 % cancelled before any unit arrives (every unit stood down, the call closes); ≈5 % of crews
 *   never press en route.
 * - The case names its primary unit as contract primaryAssignment does on a call that is over: the
 *   last that conveyed, else the last (by id: the rows are inserted in dispatch order).
 * - Calls still running at `now` are left out: nothing is open, nothing shows as live.
 *
 * Pure and deterministic: `now` and `random` are given (mulberry32 for a seeded one).
 */

export interface DemoAmbulance { id: number; license_plate: string; latitude: number; longitude: number; capability?: string }

/** What a hospital can take: contract HOSPITAL_CAPABILITIES (db/ does not import the contract; demoHistory.test.ts checks they agree). */
export type DemoCapability = 'stroke' | 'pci' | 'trauma' | 'paediatrics' | 'maternity' | 'burns';
/** An open hospital of the seed, with its database id. */
export interface DemoHospital { id: number; name: string; latitude: number; longitude: number; capabilities: readonly DemoCapability[] }
/** eDisposition.20's reasons the model gives (contract DESTINATION_REASONS). */
export type DemoDestinationReason = 'closest' | 'specialty' | 'patient_choice';
/** eDisposition.24's activations (contract ACTIVATIONS). */
export type DemoActivation = 'none' | 'stemi' | 'stroke' | 'trauma' | 'cardiac_arrest' | 'sepsis' | 'other';

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
  destination_hospital_id: number | null; destination_name: string | null; destination_reason: DemoDestinationReason | null; destination_set_at: string | null;
}

/** The ATMIST part of a pre-alert: contract prealertSchema's fields but `activation`, as the prealerts row keeps them (JSON). */
export interface DemoPrealertContent {
  age: number | null; sex: 'female' | 'male' | 'unknown'; time_of_incident: string | null; mechanism: string; injuries: string;
  signs: { hr: number | null; sbp: number | null; rr: number | null; spo2: number | null; gcs: number | null; temp: number | null };
  treatment: string; requirements: string;
}

/**
 * A prealerts row but its `assignment_id`, which the database gives: the repository finds it by
 * case and ambulance (one unit is on a call once).
 */
export interface DemoPrealertRow {
  case_id: string; ambulance_id: number; hospital_id: number; activation: DemoActivation;
  /** JSON of DemoPrealertContent. */
  content: string;
  sent_at: string; acknowledged_at: string | null; ack_alerted_at: string | null;
}

export interface DemoHistory { cases: DemoCaseRow[]; assignments: DemoAssignmentRow[]; prealerts: DemoPrealertRow[] }

export interface DemoHistoryOptions {
  now: Date;
  days: number;
  ambulances: DemoAmbulance[];
  /** Where transports go (all open). Without any, transports still hand over but have no destination and no pre-alert. */
  hospitals?: readonly DemoHospital[];
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
/** The hospital capability a type's patient needs, when the protocol takes them past the closest hospital for it. */
const SPECIALTY_FOR_TYPE: Record<string, DemoCapability> = { Stroke: 'stroke', 'Heart Attack': 'pci', 'Cardiac arrest': 'pci', Accident: 'trauma', Injury: 'trauma' };
/** The types whose every conveyed patient goes to a centre with the capability (the others only when major, MAJOR_TRAUMA_SHARE). */
const ALWAYS_SPECIALTY = new Set(['Stroke', 'Heart Attack', 'Cardiac arrest']);
/** Accidents and Injuries serious enough for a trauma centre. */
export const MAJOR_TRAUMA_SHARE = 0.35;
/** Conveyed patients of priority 2–4 taken, at their wish, to another hospital than the closest. */
export const PATIENT_CHOICE_SHARE = 0.03;
/** Handovers in the long tail (30–150 min, median 42); the others 7–29 min around 14. */
export const HANDOVER_TAIL_SHARE = 0.25;
/** The share of conveyed patients of each priority with a pre-alert (about one in ten over all of them). */
export const PREALERT_SHARE: Record<number, number> = { 1: 0.5, 2: 0.05, 3: 0.01, 4: 0 };
/** Pre-alerts acknowledged only after PREALERT_ACK_AFTER_S (3–12 min), and never. */
export const LATE_ACK_SHARE = 0.1;
export const NEVER_ACK_SHARE = 0.05;
/** PREALERT_ACK_AFTER's default: when a pre-alert not acknowledged yet was told to the dispatchers. */
export const PREALERT_ACK_AFTER_S = 180;
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

/**
 * Seconds from arrival at hospital to handover (eTimes.11 → .12), the long tail English
 * ambulances know: HANDOVER_TAIL_SHARE (1 in 4) wait 30–150 min (median 42, so about one in six of
 * them past 60), the others 7–29 min around 14 (most within 10–20). The simulator draws its waits
 * here too, scaled to its pace.
 */
export function drawHandoverS(random: () => number): number {
  const s = sampler(random);
  return s.chance(HANDOVER_TAIL_SHARE) ? s.seconds(42 * 60, 0.35, 30 * 60 + 30, 150 * 60) : s.seconds(14 * 60, 0.22, 7 * 60, 29 * 60);
}

/** The hospital capability a patient of this emergency type needs (none for most): contract HOSPITAL_CAPABILITIES' names. */
export const hospitalNeedsFor = (caseType: string): DemoCapability[] => (SPECIALTY_FOR_TYPE[caseType] ? [SPECIALTY_FOR_TYPE[caseType]] : []);

/**
 * Where a conveyed patient goes, and why (eDisposition.20): the closest hospital; the nearest
 * centre with the capability a Stroke, Heart Attack or major trauma needs (`specialty` when it is
 * not the closest); now and then, below priority 1, another the patient asks for.
 */
export function demoDestination(hospitals: readonly DemoHospital[], place: { latitude: number; longitude: number }, caseType: string, priority: number, random: () => number): { hospital: DemoHospital; reason: DemoDestinationReason } {
  const byDistance = hospitals.map((h) => ({ h, km: distanceKm(place, h) })).sort((a, b) => a.km - b.km || a.h.id - b.h.id).map((x) => x.h);
  const closest = byDistance[0];
  const need = SPECIALTY_FOR_TYPE[caseType];
  if (need && (ALWAYS_SPECIALTY.has(caseType) || random() < MAJOR_TRAUMA_SHARE)) {
    const centre = byDistance.find((h) => h.capabilities.includes(need));
    if (centre) return { hospital: centre, reason: centre === closest ? 'closest' : 'specialty' };
  }
  if (priority > 1 && byDistance.length > 1 && random() < PATIENT_CHOICE_SHARE) {
    return { hospital: byDistance[1 + Math.floor(random() * (byDistance.length - 1))], reason: 'patient_choice' };
  }
  return { hospital: closest, reason: 'closest' };
}

type Template = {
  activation: DemoActivation; age: [number, number]; onsetMin: [number, number];
  mechanism: readonly string[]; injuries: readonly string[]; treatment: readonly string[]; requirements: string;
  /** Ranges of hr, sbp, rr, spo2, gcs and temp (°C). */
  signs: [[number, number], [number, number], [number, number], [number, number], [number, number], [number, number]];
};
const NORMAL_TEMP: [number, number] = [36.4, 37.4];
const PREALERT_TEMPLATES: Record<string, Template> = {
  Stroke: {
    activation: 'stroke', age: [48, 92], onsetMin: [20, 120],
    mechanism: ['Sudden right-sided weakness and slurred speech', 'Found with a facial droop and left arm weakness', 'Sudden loss of speech and confusion at home'],
    injuries: ['FAST positive', 'FAST positive, last seen well about an hour ago', 'Left hemiparesis, gaze to the right'],
    treatment: ['Blood glucose 6.2, IV access, nil by mouth', 'Glucose normal, head raised, IV access', 'IV access, 12-lead ECG: atrial fibrillation'],
    requirements: 'Stroke team and CT on arrival',
    signs: [[64, 112], [148, 205], [14, 22], [93, 99], [10, 15], NORMAL_TEMP],
  },
  'Heart Attack': {
    activation: 'stemi', age: [38, 86], onsetMin: [15, 90],
    mechanism: ['Central crushing chest pain for 40 min, sweating', 'Chest pain spreading to the left arm and jaw, nausea', 'Chest tightness at rest, grey and clammy'],
    injuries: ['12-lead: ST elevation V1–V4', '12-lead: ST elevation II, III and aVF', '12-lead: ST elevation I, aVL, V5–V6'],
    treatment: ['Aspirin 300 mg, GTN, IV access, ECG sent', 'Aspirin 300 mg, morphine 5 mg, IV access', 'Aspirin 300 mg, oxygen, IV access, ECG sent'],
    requirements: 'Primary PCI: cath lab on arrival',
    signs: [[52, 124], [92, 165], [16, 26], [91, 98], [15, 15], NORMAL_TEMP],
  },
  'Cardiac arrest': {
    activation: 'cardiac_arrest', age: [42, 84], onsetMin: [15, 45],
    mechanism: ['Witnessed collapse, bystander CPR, VF', 'Collapsed with chest pain, arrested in front of the crew'],
    injuries: ['ROSC after two shocks', 'ROSC after three shocks, 12-lead: ST elevation'],
    treatment: ['CPR, two shocks, adrenaline 1 mg, i-gel, ventilated', 'CPR, three shocks, amiodarone 300 mg, i-gel'],
    requirements: 'Resus room and cath lab',
    signs: [[88, 132], [72, 112], [10, 14], [88, 96], [3, 8], NORMAL_TEMP],
  },
  Accident: {
    activation: 'trauma', age: [16, 72], onsetMin: [10, 40],
    mechanism: ['Motorcyclist against a car at about 40 km/h, no helmet', 'Pedestrian struck by a bus', 'Car rolled over, driver trapped 20 min'],
    injuries: ['Head injury, open fracture of the left tibia', 'Chest injury, suspected pelvic fracture', 'Suspected femur fracture, abdominal pain'],
    treatment: ['Pelvic binder, splint, IV fluids, morphine', 'Collar, oxygen, tranexamic acid 1 g', 'Traction splint, IV access, fentanyl'],
    requirements: 'Trauma team on arrival',
    signs: [[96, 142], [78, 122], [20, 32], [90, 97], [8, 15], NORMAL_TEMP],
  },
  Injury: {
    activation: 'trauma', age: [18, 88], onsetMin: [10, 60],
    mechanism: ['Fall from a scaffold, about 4 m', 'Fall down a flight of stairs', 'Legs crushed under a collapsed wall'],
    injuries: ['Suspected pelvic and wrist fractures', 'Head injury, neck pain', 'Crush injury to both legs'],
    treatment: ['Pelvic binder, IV access, morphine', 'Collar and blocks, oxygen, IV access', 'Tourniquet, IV fluids, ketamine'],
    requirements: 'Trauma team on arrival',
    signs: [[92, 136], [82, 128], [18, 30], [92, 98], [9, 15], NORMAL_TEMP],
  },
  'Medical Emergency': {
    activation: 'sepsis', age: [28, 94], onsetMin: [120, 2880],
    mechanism: ['Fever and confusion for two days', 'Breathless with a fever and a productive cough', 'Fever and rigors after a urinary infection'],
    injuries: ['Suspected sepsis, NEWS2 9', 'Suspected sepsis from the chest', 'Suspected urosepsis, mottled skin'],
    treatment: ['Oxygen, IV fluids 500 ml', 'Oxygen, IV access, fluids running', 'IV fluids 500 ml, paracetamol'],
    requirements: 'Sepsis pathway, resus bay',
    signs: [[108, 142], [72, 102], [24, 34], [86, 94], [12, 15], [38.3, 40.1]],
  },
};
const OTHER_TEMPLATE: Template = {
  activation: 'none', age: [2, 90], onsetMin: [30, 240], mechanism: [], injuries: ['Unwell, observations borderline'],
  treatment: ['Observations, IV access'], requirements: 'Majors bay', signs: [[80, 118], [100, 150], [16, 24], [94, 99], [14, 15], NORMAL_TEMP],
};

/**
 * An ATMIST pre-alert for a patient of this type (`activation` and the content the prealerts row
 * keeps): the patient's age and sex, the time of the incident before the call, the mechanism, the
 * injuries or findings, vital signs within the type's plausible ranges, the treatment given, and what
 * the crew needs ready. A tenth of Heart Attack patients arrest on the way: `cardiac_arrest`.
 */
export function demoPrealert(caseType: string, description: string, receivedMs: number, random: () => number): { activation: DemoActivation; content: DemoPrealertContent } {
  const s = sampler(random);
  const t = caseType === 'Heart Attack' && s.chance(0.1) ? PREALERT_TEMPLATES['Cardiac arrest'] : PREALERT_TEMPLATES[caseType] ?? OTHER_TEMPLATE;
  const within = ([lo, hi]: [number, number]) => lo + random() * (hi - lo);
  const whole = (r: [number, number]) => Math.round(within(r));
  const [hr, sbp, rr, spo2, gcs, temp] = t.signs;
  const sex = random();
  return {
    activation: t.activation,
    content: {
      age: whole(t.age),
      sex: sex < 0.48 ? 'female' : sex < 0.96 ? 'male' : 'unknown',
      time_of_incident: iso(receivedMs - within(t.onsetMin) * 60_000),
      mechanism: t.mechanism.length ? s.pick(t.mechanism) : description,
      injuries: s.pick(t.injuries),
      signs: { hr: whole(hr), sbp: whole(sbp), rr: whole(rr), spo2: whole(spo2), gcs: whole(gcs), temp: Math.round(within(temp) * 10) / 10 },
      treatment: s.pick(t.treatment),
      requirements: t.requirements,
    },
  };
}

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
  const hospitals = o.hospitals ?? [];
  const cases: DemoCaseRow[] = [];
  const assignments: DemoAssignmentRow[] = [];
  const prealerts: DemoPrealertRow[] = [];
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
        destination_hospital_id: null, destination_name: null, destination_reason: null, destination_set_at: null,
      };
      return { unit, row, dispatched, enRoute, onScene, car, over: onScene, prealert: null as Omit<DemoPrealertRow, 'case_id'> | null };
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
          // The destination as the unit leaves; the drive there at the crew's speed; the handover's long tail; clear after it.
          const to = hospitals.length ? demoDestination(hospitals, place, caseType, priority, o.random) : null;
          const drive = to
            ? Math.max(3 * 60_000, (distanceKm(place, to.hospital) * ROAD_FACTOR / (SPEED_KMH * s.seconds(1, 0.2, 0.6, 1.5))) * HOUR_MS)
            : 1000 * s.seconds(14 * 60, 0.3, 8 * 60, 25 * 60);
          const atHospital = leaves + drive;
          const handover = atHospital + 1000 * drawHandoverS(o.random);
          u.over = handover + 1000 * s.seconds(9 * 60, 0.35, 5 * 60, 20 * 60);
          u.row.transporting_at = iso(leaves);
          u.row.at_hospital_at = iso(atHospital);
          u.row.handover_at = iso(handover);
          if (to) {
            Object.assign(u.row, { destination_hospital_id: to.hospital.id, destination_name: to.hospital.name, destination_reason: to.reason, destination_set_at: iso(leaves) });
            if (s.chance(PREALERT_SHARE[priority])) {
              // Sent 1–5 min into the drive (before arrival); acknowledged in 1–3 min, or late, or never.
              const sent = leaves + Math.min(1000 * s.seconds(120, 0.4, 60, 300), 0.6 * drive);
              const r = o.random();
              const acknowledged = r < NEVER_ACK_SHARE ? null
                : sent + 1000 * (r < NEVER_ACK_SHARE + LATE_ACK_SHARE ? s.seconds(300, 0.4, PREALERT_ACK_AFTER_S + 10, 720) : s.seconds(100, 0.3, 60, PREALERT_ACK_AFTER_S));
              const { activation, content } = demoPrealert(caseType, description, received, o.random);
              u.prealert = {
                ambulance_id: u.unit.id, hospital_id: to.hospital.id, activation, content: JSON.stringify(content), sent_at: iso(sent),
                acknowledged_at: acknowledged == null ? null : iso(acknowledged),
                ack_alerted_at: acknowledged == null || acknowledged - sent > PREALERT_ACK_AFTER_S * 1000 ? iso(sent + PREALERT_ACK_AFTER_S * 1000) : null,
              };
            }
          }
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
    for (const u of units) if (u.prealert) prealerts.push({ ...u.prealert, case_id: id });
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
  return { cases, assignments, prealerts };
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
