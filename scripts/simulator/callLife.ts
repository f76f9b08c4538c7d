import { demoPrealert, drawHandoverS, hospitalNeedsFor, mulberry32 } from '../../db/seeds/demoHistory';
import { type AssignmentDto, type AssignmentStatus, type UnitStep, isOpenAssignment, stepTimeKey } from '../../realtime-server/contract/callLife';
import { type LatLon, distanceMeters } from '../../realtime-server/contract/geo';
import type { DestinationReason, HospitalCapability, HospitalDto, HospitalSuggestion } from '../../realtime-server/contract/hospitals';
import type { PrealertInput } from '../../realtime-server/contract/hospitalSchemas';
import { ARRIVED_M } from './motion';

/** Where a unit conveys a patient: a hospital of the server's (with its `id`), or, on a server with none, a point of HOSPITALS. */
export type Hospital = LatLon & { name: string; id?: number };

/**
 * Hospitals near the demo city (Hyderabad, db/seeds/demo.ts's DEMO_CENTRE) an ambulance drives to
 * when the server has no hospitals to choose from (the destination then stays unset).
 */
export const HOSPITALS: Hospital[] = [
  { name: 'Osmania General Hospital', latitude: 17.3713, longitude: 78.4740 },
  { name: 'Gandhi Hospital, Secunderabad', latitude: 17.4225, longitude: 78.5026 },
  { name: 'NIMS, Punjagutta', latitude: 17.4222, longitude: 78.4514 },
  { name: 'Apollo Hospitals, Jubilee Hills', latitude: 17.4156, longitude: 78.4120 },
  { name: 'Kamineni Hospital, LB Nagar', latitude: 17.3474, longitude: 78.5527 },
];

export function nearestHospital(p: LatLon, hospitals: readonly Hospital[] = HOSPITALS): Hospital {
  return hospitals.reduce((best, h) => (distanceMeters(p, h) < distanceMeters(p, best) ? h : best));
}

/** What the simulator reads of a call for its hospital end: the emergency type chooses the hospital and the pre-alert. */
export interface SimCall {
  caseType: string | null;
  description: string;
  priority: number;
  /** epoch ms */
  receivedAt: number;
}

/** One unit's open assignment as the simulator drives it (a call may have several units, each its own job). */
export interface SimJob {
  caseId: string;
  /** The assignment's id (its destination and pre-alert are posted under it). */
  assignmentId: number;
  status: AssignmentStatus;
  /**
   * When the assignment reached its status (epoch ms); for a unit waiting on scene for the
   * ambulance (`waitForCrew`), when that ambulance arrived.
   */
  since: number;
  /** The patient's shared location, if any. */
  patient: LatLon | null;
  /**
   * Where the patient is taken, or null when they are treated on scene (always null for a unit that
   * cannot convey): the assignment's destination once set (by the simulator as the unit leaves the
   * scene, or by a dispatcher or the crew), until then the nearest point of HOSPITALS.
   */
  hospital: Hospital | null;
  /** Whether the server holds the unit's destination (`hospital` is it). */
  destinationSet: boolean;
  call: SimCall;
  /**
   * A unit that cannot convey (a responder car) on a call whose ambulance has not reached the
   * scene yet: it stays on scene, treating, until the ambulance is there.
   */
  waitForCrew?: boolean;
}

type CallUnits = {
  id: string; latitude: number | null; longitude: number | null; assignments: AssignmentDto[];
  caseType?: string | null; description?: string; priority?: number; call_received_at?: string;
};

/** Whether a unit that can convey has reached the call's scene (it is there, or was: it left for hospital or cleared since). */
const crewArrivedAt = (c: CallUnits) => {
  const times = c.assignments.filter((o) => o.can_transport && o.on_scene_at != null).map((o) => Date.parse(o.on_scene_at!));
  return times.length ? Math.min(...times) : null;
};

/**
 * The jobs of one active call, by ambulance id: one per open unit (a call may have several), as
 * the server lists them (CaseDto `assignments`). `hospital` is where the call's patient goes, or
 * null when treated on scene; only units that can convey go there, each to its own destination
 * once the server holds one (found among `hospitals`, the server's by id). A unit that cannot (a
 * responder car) waits on scene while an ambulance of its call is still on its way, and counts its
 * time on scene from that ambulance's arrival.
 */
export function callJobs(c: CallUnits, hospital: Hospital | null, hospitals: ReadonlyMap<number, Hospital> = new Map()): Map<number, SimJob> {
  const patient = c.latitude != null && c.longitude != null ? { latitude: c.latitude, longitude: c.longitude } : null;
  const call: SimCall = {
    caseType: c.caseType ?? null, description: c.description ?? '', priority: c.priority ?? 3,
    receivedAt: c.call_received_at ? Date.parse(c.call_received_at) : Date.now(),
  };
  const arrived = crewArrivedAt(c);
  const ambulanceComing = c.assignments.some((o) => o.can_transport && isOpenAssignment(o.status));
  const jobs = new Map<number, SimJob>();
  for (const a of c.assignments) {
    if (a.ambulance_id == null || !isOpenAssignment(a.status)) continue;
    let since = Date.parse(a[stepTimeKey(a.status)] ?? a.dispatched_at);
    if (!a.can_transport && a.status === 'on_scene' && arrived != null) since = Math.max(since, arrived);
    const destination = a.destination?.hospital_id != null ? hospitals.get(a.destination.hospital_id) : undefined;
    jobs.set(a.ambulance_id, {
      caseId: c.id, assignmentId: a.id, status: a.status, since, patient,
      // A destination chosen for it (by anyone) is where it goes, even on a call the simulator meant to treat on scene.
      hospital: a.can_transport ? (destination ?? hospital) : null,
      destinationSet: a.can_transport && destination != null,
      call,
      waitForCrew: !a.can_transport && arrived == null && ambulanceComing,
    });
  }
  return jobs;
}

/** A unit that can convey reached the scene of `caseId` at `now`: the units of that call waiting for it hand over from then. */
export function crewOnScene(jobs: Map<number, SimJob>, caseId: string, now: number) {
  for (const [id, j] of jobs) {
    if (j.caseId === caseId && j.waitForCrew) jobs.set(id, { ...j, waitForCrew: false, since: j.status === 'on_scene' ? now : j.since });
  }
}

export interface LifeOptions {
  /** Seconds a dispatched crew takes to start moving (turnout). */
  turnoutS: number;
  /** Seconds on scene before transporting (or clearing). */
  onSceneS: number;
  /**
   * The simulator's pace at hospital: the seconds that stand for a 15-minute handover (the NHS's
   * first target). Each unit's wait from at hospital to handover is drawn from the demo history's
   * long tail (handoverWaitS) and scaled by it.
   */
  atHospitalS: number;
  /** Seconds from handover to clear (the crew cleans and restocks). */
  afterHandoverS: number;
}

/** The minutes a handover of `LifeOptions.atHospitalS` seconds stands for. */
export const PACE_MINUTES = 15;

/**
 * Seconds from at hospital to handover for this assignment: the demo history's long tail (most
 * 10–20 min, about 1 in 4 past 30, a few past 60; drawHandoverS), at the simulator's pace (a
 * 15-minute handover takes `atHospitalS`). Drawn from the assignment's id, so that the same unit
 * keeps its wait however often the simulator rereads the call.
 */
export const handoverWaitS = (assignmentId: number, atHospitalS: number) =>
  (drawHandoverS(mulberry32(assignmentId * 2_654_435_761)) / (PACE_MINUTES * 60)) * atHospitalS;

/** Where the ambulance drives now: null while it stands (turnout), the patient, then the hospital. */
export function destination(job: SimJob): LatLon | null {
  switch (job.status) {
    case 'en_route':
    case 'on_scene':
      return job.patient;
    case 'transporting':
    case 'at_hospital':
    case 'handover':
      return job.hospital;
    default:
      return null;
  }
}

const arrived = (at: LatLon, target: LatLon | null) => target != null && distanceMeters(at, target) <= ARRIVED_M;

/**
 * The step the crew reports now, or null: en route once the turnout is over (it starts moving),
 * on scene on arrival (after the on-scene wait when the patient shared no location), then after
 * its time on scene transporting (or clear when treated on scene), at hospital on arrival there,
 * handover after its wait there (handoverWaitS: a long tail), and clear a little after. A unit
 * that cannot convey (no hospital) never transports: on scene it waits for its call's ambulance
 * (`waitForCrew`), then clears after the on-scene time.
 */
export function nextStep(job: SimJob, position: LatLon, nowMs: number, o: LifeOptions): UnitStep | null {
  const waited = (nowMs - job.since) / 1000;
  switch (job.status) {
    case 'dispatched':
      return waited >= o.turnoutS ? 'en_route' : null;
    case 'en_route':
      return (job.patient ? arrived(position, job.patient) : waited >= o.onSceneS) ? 'on_scene' : null;
    case 'on_scene':
      if (job.waitForCrew) return null;
      return waited >= o.onSceneS ? (job.hospital ? 'transporting' : 'cleared') : null;
    case 'transporting':
      return !job.hospital || arrived(position, job.hospital) ? 'at_hospital' : null;
    case 'at_hospital':
      return waited >= handoverWaitS(job.assignmentId, o.atHospitalS) ? 'handover' : null;
    case 'handover':
      return waited >= o.afterHandoverS ? 'cleared' : null;
    default:
      return null;
  }
}

/** The hospital capabilities a patient of this emergency type needs (Stroke: stroke, Heart Attack: pci, Accident and Injury: trauma; the demo history's rule). */
export const needsFor = (caseType: string | null): HospitalCapability[] => hospitalNeedsFor(caseType ?? '');

/**
 * The destination for a patient among the server's suggestions (GET /api/hospitals/suggestions,
 * ranked: open before diversion, meeting the needs before not, then by arrival): the first, with
 * eDisposition.20's reason: `specialty` when it was chosen for the needs over an open hospital
 * that is closer, otherwise `closest`. Null when there is no hospital at all.
 */
export function chooseDestination(suggestions: readonly HospitalSuggestion[]): { hospital: Hospital & { id: number }; reason: DestinationReason } | null {
  const first = suggestions[0];
  if (!first) return null;
  const open = suggestions.filter((x) => !x.diversion);
  const closest = open.reduce<HospitalSuggestion | null>((best, x) => (best == null || x.eta_s < best.eta_s ? x : best), null);
  const reason: DestinationReason = first.meets_needs && closest != null && closest !== first && closest.eta_s < first.eta_s ? 'specialty' : 'closest';
  return { hospital: asHospital(first.hospital), reason };
}

export const asHospital = (h: Pick<HospitalDto, 'id' | 'name' | 'latitude' | 'longitude'>): Hospital & { id: number } =>
  ({ id: h.id, name: h.name, latitude: h.latitude, longitude: h.longitude });

/** The share of transports the simulator pre-alerts by default (the "about one in ten"). */
export const PREALERT_SHARE = 0.1;

/** An ATMIST pre-alert for the call's patient, as the demo history makes them: the activation from its type (Stroke: stroke, Heart Attack: stemi…). */
export function prealertBody(call: SimCall, random: () => number): PrealertInput {
  const { activation, content } = demoPrealert(call.caseType ?? 'Other', call.description, call.receivedAt, random);
  return { ...content, activation };
}
