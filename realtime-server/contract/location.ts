import type { Capability, TransportCapability } from './capability';
import type { Priority } from './callLife';
// Where a call is and who is nearest (issue 16): zod-free, so the web may import its values.
import { type LatLon, distanceMeters } from './geo';

/**
 * Where an ambulance's position came from: `driver` the driver page in a browser, `staff` a
 * dispatcher or the demo seed, `osmand` the OsmAnd protocol (Traccar Client, OsmAnd, many
 * vehicle trackers), `owntracks` the OwnTracks app in HTTP mode.
 */
export const POSITION_SOURCES = ['driver', 'staff', 'osmand', 'owntracks'] as const;
export type PositionSourceName = (typeof POSITION_SOURCES)[number];

/**
 * Seconds after which a fix from each source counts as stale (DOMAIN.md §4: a browser 60 s,
 * an app 120 s). A centre whose OsmAnd devices are vehicle trackers sets osmand=600s
 * (STALE_AFTER); /api/config serves the thresholds in force.
 */
export const DEFAULT_STALE_AFTER_S: Record<PositionSourceName, number> = { driver: 60, staff: 120, osmand: 120, owntracks: 120 };

export type StaleThresholds = Record<PositionSourceName, number>;

/** The stale threshold of a source in milliseconds; an unknown or missing source takes the longest app threshold (120 s). */
export function staleAfterMs(source: string | null | undefined, thresholds: StaleThresholds = DEFAULT_STALE_AFTER_S): number {
  const s = (POSITION_SOURCES as readonly string[]).includes(source ?? '') ? thresholds[source as PositionSourceName] : thresholds.staff;
  return s * 1000;
}

/** How an intake location was understood. */
export const INTAKE_SOURCES = ['address', 'plus_code', 'coordinates', 'pin'] as const;
export type IntakeSource = (typeof INTAKE_SOURCES)[number];

/** The location taken on the phone (New Case, Edit Case), kept apart from the patient's shared GPS. */
export interface IntakeLocationDto {
  latitude: number;
  longitude: number;
  /** The place text shown to the operator when it was taken ("lat, lon" for bare coordinates). */
  address: string;
  source: IntakeSource;
}

/** The patient's shared GPS fix (the location page), as today. */
export interface PatientLocationDto {
  latitude: number;
  longitude: number;
  accuracy: number | null;
  updated_at: string;
}

/** A patient fix at most this rough (metres) is preferred to the intake location. */
export const ACCURATE_FIX_M = 100;
/** Intake and patient locations further apart than this are flagged on the board. */
export const LOCATION_MISMATCH_M = 300;

/** Which of the two locations a case's `latitude`/`longitude` are. */
export type LocationSource = 'patient' | 'intake';

/**
 * The best known location: the patient's fix when it is accurate (or its accuracy unknown),
 * else the intake one; a rough patient fix still beats nothing.
 */
export function bestLocation(intake: IntakeLocationDto | null, patient: PatientLocationDto | null): (LatLon & { source: LocationSource }) | null {
  const patientGood = patient != null && (patient.accuracy == null || patient.accuracy <= ACCURATE_FIX_M);
  if (patient && (patientGood || !intake)) return { latitude: patient.latitude, longitude: patient.longitude, source: 'patient' };
  if (intake) return { latitude: intake.latitude, longitude: intake.longitude, source: 'intake' };
  return null;
}

/** Metres between the intake and the patient's locations when both exist and lie more than LOCATION_MISMATCH_M apart; else null. */
export function locationMismatchM(intake: LatLon | null | undefined, patient: LatLon | null | undefined): number | null {
  if (!intake || !patient) return null;
  const d = distanceMeters(intake, patient);
  return d > LOCATION_MISMATCH_M ? Math.round(d) : null;
}

/** GET /api/geocode/search?q=…: what the text was understood as, best first. */
export interface GeocodeSearchResult {
  displayName: string;
  latitude: number;
  longitude: number;
  source: IntakeSource;
}
export interface GeocodeSearchResponse { results: GeocodeSearchResult[] }
/** The 503 answer when an address needs the geocoder and it is off or unreachable. */
export const ADDRESS_SEARCH_UNAVAILABLE = 'address search is unavailable; enter coordinates, a plus code or drop a pin';
/** The 409 answer to a search still waiting for the geocoder when the same user sent a newer one. */
export const ADDRESS_SEARCH_SUPERSEDED = 'superseded by a newer address search';

/** GET /api/dispatch/suggestions?latitude=…&longitude=…: free ambulances by estimated arrival. */
export interface DispatchSuggestion {
  ambulance_id: number;
  license_plate: string;
  distance_m: number;
  eta_s: number;
  /** Seconds since its last fix. */
  position_age_s: number;
  /** Older than its source's threshold: ranked after every fresh one. */
  stale: boolean;
  /** What the unit can do (NEMSIS eResponse.07). */
  capability: Capability;
  /** False only for a responder (a car that cannot convey). */
  can_transport: boolean;
  /** It conveys at the level the priority needs (PRIORITY_NEEDS); without a priority, that it conveys at all. Ranked first. */
  meets_need: boolean;
}

/**
 * For a priority, what a dispatcher would send (DOMAIN.md §5): the quickest unit of any kind, and,
 * when that one cannot convey or does not meet the need, also the quickest one that does.
 */
export interface DispatchPlan {
  priority: Priority;
  need: TransportCapability;
  /** The quickest unit of any kind (fresh positions before stale ones); null when no unit is free. */
  first: DispatchPlanUnit | null;
  /**
   * When `first` cannot convey or does not meet the need: the quickest unit that does (or, when none
   * does, the quickest that conveys at all, `meets_need` false); null when `first` is enough or none conveys.
   */
  transport: DispatchPlanUnit | null;
  /** The ambulances to send, quickest first: one, or both. */
  send: number[];
  /** In words, for the form: "Car TS09 2 min, ambulance TS07 9 min: send both". */
  reason: string;
}
export type DispatchPlanUnit = Pick<DispatchSuggestion, 'ambulance_id' | 'license_plate' | 'capability' | 'can_transport' | 'meets_need' | 'stale'> & { eta_s: number | null };

export interface DispatchSuggestionsResponse {
  suggestions: DispatchSuggestion[];
  /** How the estimates were made: the default road factor and speed, or calibrated from this centre's trips. */
  model: { road_factor: number; speed_kmh: number; calibrated: boolean; trips: number };
  /** For the query's priority; null when none was given. */
  plan: DispatchPlan | null;
}

/** POST /api/ambulances/{id}/device: the device secret, answered once. */
export interface DeviceIdentityResponse {
  device_id: string;
  /** Where each app sends positions, and how to set it up. */
  instructions: { traccar: string; owntracks: string };
}
