import type { HospitalCapability } from './hospitals';
import type { AssignmentDto, AssignmentStatus, Priority, PriorityInfo } from './callLife';
import type { PriorityClockStops, PriorityNeeds } from './capability';
import type { EtaModelParams } from './eta';
import type { LatLon } from './geo';
import type { LocationSource, StaleThresholds } from './location';
import { z } from 'zod';
import { email, intId } from './common';
import type { TrailPoint } from './trail';

/** Tracking payload of SPEC.md §3. The server mails the addresses it holds for the case and ambulance. */
export const trackingInitiateSchema = z.object({
  caseId: z.uuid({ error: 'must be a case id' }),
  ambulanceId: intId(),
  patientEmail: z.union([z.literal(''), email()]).optional(),
  driverEmail: z.union([z.literal(''), email()]).optional(),
});
export type TrackingInitiateInput = z.infer<typeof trackingInitiateSchema>;

export interface TrackingInitiateResponse {
  success: true;
  message: string;
  caseId: string;
  ambulanceId: number;
  patientEmail: string;
  driverEmail: string;
}

/**
 * What a dispatch told the ambulance's crew: the driver link (and the patient's tracking link)
 * went out with the dispatch, mailed to the ambulance's driver e-mail; without one nothing went
 * to the crew, the dispatch stands, and the case's timeline has a `crew.not_notified` entry.
 */
export interface CrewNotice {
  ambulance_id: number;
  license_plate: string;
  /** Where the driver link was mailed; null when the ambulance has no driver e-mail. */
  driver_email: string | null;
  mailed: boolean;
  /** For the dispatcher, e.g. "Driver link sent to driver1@lifeline.test" or "TS09 EA 1001 has no driver e-mail: …". */
  message: string;
}

/** The patient's position as last shared from their location link. */
export interface SharedPosition { latitude: number; longitude: number; accuracy: number | null; updated_at: string }

/** Which link a token is: the driver's may send positions, the viewer's only watches. */
export type LinkRole = 'viewer' | 'driver';

/**
 * GET /api/track/{ambulanceId}?t=TOKEN, for the patient's tracking link and the driver's
 * link alike: the ambulance's latest position and recent trail, and the case it is on with
 * the patient's own shared location.
 */
export interface TrackResponse {
  ambulanceId: number;
  license_plate: string;
  latitude: number | null;
  longitude: number | null;
  updated_at: string | null;
  /** Oldest first, within TRAIL_WINDOW_MS and TRAIL_MAX_POINTS (contract/trail.ts), none before the case's dispatch. */
  trail: TrailPoint[];
  case: { id: string; status: string; patientName: string; description: string };
  patient: SharedPosition | null;
  /** ETA_SPEED_KMH, the model's default speed; estimates use `eta_model` (contract arrivalEstimate). */
  etaSpeedKmh: number;
  /** The server's arrival model in force (default or calibrated), the one every screen estimates with. */
  eta_model: EtaModelParams;
  /** This ambulance's step on the case (its assignment's status), null when it has none: no estimate once it has arrived. */
  unit_status: AssignmentStatus | null;
  role: LinkRole;
  /** The case's priority: the driver's link only (a viewer's answer is unchanged). */
  priority?: Priority;
  /** This ambulance's current (or last) assignment to the case, for its next-step button: the driver's link only. */
  assignment?: AssignmentDto | null;
  /** The other units on the call (open first) with their steps, so a crew knows who else is coming: the driver's link only. */
  units?: TrackUnit[];
  /** What the call's emergency type asks of the hospital (contract needsForType): the driver's link only, for its hospital suggestions. */
  hospital_needs?: HospitalCapability[];
  /**
   * Where the ambulance is heading: the case's best known location (contract bestLocation), the
   * patient's fix when it is accurate, else the location taken at intake, so a crew has a
   * destination and the tracking page an estimate before the patient shares anything. Null when
   * neither is known. The intake's place text (`address`) goes to the driver's link only.
   */
  destination: TrackDestination | null;
}

/**
 * `track.case`: what a link's socket hears when its case changes (the same commit staff hear as
 * `case.updated` or, for the patient's share, `case.location`), for the link's own case and
 * ambulance only: the very fields GET /api/track answers that link about the case (the one
 * presenter, presenters/presentTrack.ts), nothing more. A viewer gets the case's words and state,
 * the patient's shared position, the unit's step and the destination without its place text; the
 * driver also the priority and its own assignment, so a step pressed on the board shows on the
 * crew's phone at once.
 */
export type TrackCaseUpdate = Pick<TrackResponse, 'ambulanceId' | 'case' | 'patient' | 'unit_status' | 'destination' | 'priority' | 'assignment' | 'units' | 'hospital_needs'>;

/** Another unit on a driver's call: its plate, what it can do and its step. */
export type TrackUnit = Pick<AssignmentDto, 'license_plate' | 'capability' | 'can_transport' | 'status'>;

/** One position of a link's ambulance as its socket hears it: a point of the trail GET /api/track answers. */
export interface TrackPosition extends TrailPoint { ambulanceId: number }

/** `track.position`: a link's socket hears every position of its ambulance, one per message, in order. */
export interface TrackPositionBatch { positions: TrackPosition[] }

/**
 * `driver.standby`: a driver link whose call ended (cleared, or the unit taken off it: cancelled)
 * keeps a socket that hears only its ambulance's next call, until `until` (docs/api.md "The driver link between calls").
 */
export interface DriverStandby {
  ambulanceId: number;
  license_plate: string;
  /** The call that ended and how this unit's part in it ended. */
  caseId: string;
  ended: 'cleared' | 'cancelled';
  until: string;
}

/** `driver.dispatched`: the ambulance has a new call; `link` (`/driver/{id}?t=…`) is a driver link of its own for it. */
export interface DriverDispatched {
  ambulanceId: number;
  caseId: string;
  priority: Priority;
  link: string;
  /** The call this page was on and how the unit's part in it ended (`cancelled` right before a dispatch: diverted). */
  from: { caseId: string; ended: 'cleared' | 'cancelled' };
}

/** The driver's destination: a point, whose it is, and the intake's place text when it is the intake's. */
export interface TrackDestination { latitude: number; longitude: number; source: LocationSource; address: string | null }

/** GET /api/config: what the web app needs of the server's settings. */
export interface ConfigResponse {
  tileUrl: string;
  /** ETA_SPEED_KMH, the model's default speed; estimates use `eta_model`. */
  etaSpeedKmh: number;
  /** The server's arrival model in force (contract arrivalEstimate): road factor and speed, default or calibrated. */
  eta_model: EtaModelParams;
  /** Priorities 1–4 with their labels and targets, most urgent first. */
  priorities: PriorityInfo[];
  /** NFPA 1710 turnout: an assignment still dispatched after this many seconds is flagged. */
  turnout_s: number;
  /** Seconds after which a fix from each position source is stale. */
  stale_after_s: StaleThresholds;
  /** The dispatch centre (the intake map starts there; short plus codes are read from it). */
  centre: LatLon;
  /** Ended calls stay on the live board this many hours after they end (BOARD_RECENT_HOURS). */
  board_recent_hours: number;
  /** The least transport capability each priority needs (PRIORITY_NEEDS): `{1: 'als', …}`. */
  priority_needs: PriorityNeeds;
  /** Which arrival stops each priority's response clock (PRIORITY_CLOCK_STOP): `first` or `transport`. */
  clock_stops: PriorityClockStops;
  /** The handover clock's thresholds in minutes (HANDOVER_TARGETS, 15,30,45,60 by default; the third is "release to respond"). */
  handover_targets: number[];
  /** Seconds after which an unacknowledged pre-alert alerts the dispatchers (PREALERT_ACK_AFTER). */
  prealert_ack_after_s: number;
}

export interface GeocodeResponse { displayName: string; cached: boolean }

export interface OutboxMessageDto {
  id: number;
  kind: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
  status: 'queued' | 'sending' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  case_id: string | null;
  created_at: string;
  sent_at: string | null;
}
