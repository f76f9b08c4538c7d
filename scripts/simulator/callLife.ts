import { type AssignmentDto, type AssignmentStatus, type UnitStep, isOpenAssignment, stepTimeKey } from '../../realtime-server/contract/callLife';
import { type LatLon, distanceMeters } from '../../realtime-server/contract/geo';
import { ARRIVED_M } from './motion';

/** Hospitals near the demo city (Hyderabad, db/seeds/demo.ts's DEMO_CENTRE) an ambulance may transport to. */
export const HOSPITALS: (LatLon & { name: string })[] = [
  { name: 'Osmania General Hospital', latitude: 17.3713, longitude: 78.4740 },
  { name: 'Gandhi Hospital, Secunderabad', latitude: 17.4225, longitude: 78.5026 },
  { name: 'NIMS, Punjagutta', latitude: 17.4222, longitude: 78.4514 },
  { name: 'Apollo Hospitals, Jubilee Hills', latitude: 17.4156, longitude: 78.4120 },
  { name: 'Kamineni Hospital, LB Nagar', latitude: 17.3474, longitude: 78.5527 },
];

export type Hospital = (typeof HOSPITALS)[number];

export function nearestHospital(p: LatLon, hospitals: readonly Hospital[] = HOSPITALS): Hospital {
  return hospitals.reduce((best, h) => (distanceMeters(p, h) < distanceMeters(p, best) ? h : best));
}

/** One unit's open assignment as the simulator drives it (a call may have several units, each its own job). */
export interface SimJob {
  caseId: string;
  status: AssignmentStatus;
  /**
   * When the assignment reached its status (epoch ms); for a unit waiting on scene for the
   * ambulance (`waitForCrew`), when that ambulance arrived.
   */
  since: number;
  /** The patient's shared location, if any. */
  patient: LatLon | null;
  /** Where the patient is taken, or null when they are treated on scene (always null for a unit that cannot convey). */
  hospital: Hospital | null;
  /**
   * A unit that cannot convey (a responder car) on a call whose ambulance has not reached the
   * scene yet: it stays on scene, treating, until the ambulance is there.
   */
  waitForCrew?: boolean;
}

type CallUnits = { id: string; latitude: number | null; longitude: number | null; assignments: AssignmentDto[] };

/** Whether a unit that can convey has reached the call's scene (it is there, or was: it left for hospital or cleared since). */
const crewArrivedAt = (c: CallUnits) => {
  const times = c.assignments.filter((o) => o.can_transport && o.on_scene_at != null).map((o) => Date.parse(o.on_scene_at!));
  return times.length ? Math.min(...times) : null;
};

/**
 * The jobs of one active call, by ambulance id: one per open unit (a call may have several), as
 * the server lists them (CaseDto `assignments`). `hospital` is where the call's patient goes, or
 * null when treated on scene; only units that can convey go there. A unit that cannot (a responder
 * car) waits on scene while an ambulance of its call is still on its way, and counts its time on
 * scene from that ambulance's arrival.
 */
export function callJobs(c: CallUnits, hospital: Hospital | null): Map<number, SimJob> {
  const patient = c.latitude != null && c.longitude != null ? { latitude: c.latitude, longitude: c.longitude } : null;
  const arrived = crewArrivedAt(c);
  const ambulanceComing = c.assignments.some((o) => o.can_transport && isOpenAssignment(o.status));
  const jobs = new Map<number, SimJob>();
  for (const a of c.assignments) {
    if (a.ambulance_id == null || !isOpenAssignment(a.status)) continue;
    let since = Date.parse(a[stepTimeKey(a.status)] ?? a.dispatched_at);
    if (!a.can_transport && a.status === 'on_scene' && arrived != null) since = Math.max(since, arrived);
    jobs.set(a.ambulance_id, {
      caseId: c.id, status: a.status, since, patient,
      hospital: a.can_transport ? hospital : null,
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
  /** Seconds at hospital before clearing. */
  atHospitalS: number;
}

/** Where the ambulance drives now: null while it stands (turnout), the patient, then the hospital. */
export function destination(job: SimJob): LatLon | null {
  switch (job.status) {
    case 'en_route':
    case 'on_scene':
      return job.patient;
    case 'transporting':
    case 'at_hospital':
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
 * and clear after its time at hospital. A unit that cannot convey (no hospital) never transports:
 * on scene it waits for its call's ambulance (`waitForCrew`), then clears after the on-scene time.
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
      return waited >= o.atHospitalS ? 'cleared' : null;
    default:
      return null;
  }
}
