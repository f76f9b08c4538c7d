import type { AssignmentStatus, UnitStep } from '../../realtime-server/contract/callLife';
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

/** One ambulance's open assignment as the simulator drives it. */
export interface SimJob {
  caseId: string;
  status: AssignmentStatus;
  /** When the assignment reached its status (epoch ms). */
  since: number;
  /** The patient's shared location, if any. */
  patient: LatLon | null;
  /** Where the patient is taken, or null when they are treated on scene. */
  hospital: Hospital | null;
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
 * and clear after its time at hospital.
 */
export function nextStep(job: SimJob, position: LatLon, nowMs: number, o: LifeOptions): UnitStep | null {
  const waited = (nowMs - job.since) / 1000;
  switch (job.status) {
    case 'dispatched':
      return waited >= o.turnoutS ? 'en_route' : null;
    case 'en_route':
      return (job.patient ? arrived(position, job.patient) : waited >= o.onSceneS) ? 'on_scene' : null;
    case 'on_scene':
      return waited >= o.onSceneS ? (job.hospital ? 'transporting' : 'cleared') : null;
    case 'transporting':
      return !job.hospital || arrived(position, job.hospital) ? 'at_hospital' : null;
    case 'at_hospital':
      return waited >= o.atHospitalS ? 'cleared' : null;
    default:
      return null;
  }
}
