import {
  type AmbulanceDto, type AssignmentStatus, type CaseDto, type EtaModelParams, type LatLon, type StaleThresholds,
  DEFAULT_STALE_AFTER_S, STALE_AFTER_MS, arrivalEstimate, arrivalText, awaitsArrival, distanceMeters, formatDistance, staleAfterMs,
} from '../api/contract';

/**
 * The words every staff screen uses for live positions: the time of a fix, 'Stale' after its
 * threshold (an ambulance's per source, from /api/config; a patient's two minutes), its
 * accuracy, and an ambulance's straight-line distance and estimated arrival at its patient.
 * Pure: `now`, the thresholds and the arrival model come from the caller. The estimate itself is
 * the contract's one (arrivalEstimate): the same minutes as the alerts, the New Case form and the
 * tracking page, and none once the unit is on scene.
 */

export const STALE_TEXT = 'Stale';
/** Shown beside every ETA: it is straight-line distance times a road factor over an average speed, not a route. */
export const ESTIMATE_TEXT = 'Estimate';
export const ESTIMATE_HINT = 'An estimate: straight-line distance times a road factor at an average urban speed, not a road route';

type MaybePoint = { latitude?: number | null; longitude?: number | null } | null | undefined;

/** The point when both coordinates are finite numbers, else null. */
export function pointOf(p: MaybePoint): LatLon | null {
  if (!p || p.latitude == null || p.longitude == null) return null;
  if (!Number.isFinite(p.latitude) || !Number.isFinite(p.longitude)) return null;
  return { latitude: p.latitude, longitude: p.longitude };
}

/** '±12 m', '±1.5 km'; null when the accuracy is unknown. */
export function accuracyText(metres: number | null | undefined): string | null {
  if (metres == null || !Number.isFinite(metres) || metres < 0) return null;
  return `±${formatDistance(metres)}`;
}

/**
 * When a fix was taken: the time with seconds when it is from today, else the date too;
 * 'Not Available' without a valid time.
 */
export function fixTimeText(iso: string | null | undefined, now = Date.now(), locale?: string): string {
  const at = iso ? new Date(iso) : null;
  if (!at || Number.isNaN(at.getTime())) return 'Not Available';
  const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit' };
  return at.toDateString() === new Date(now).toDateString()
    ? at.toLocaleTimeString(locale, time)
    : at.toLocaleString(locale, { month: 'short', day: 'numeric', ...time });
}

export interface FixText {
  /** fixTimeText of the fix. */
  time: string;
  /** Older than its threshold, or of unknown time. */
  stale: boolean;
  /** accuracyText, when known. */
  accuracy: string | null;
}

/** A position's time, staleness (older than `staleMs`, or of unknown time) and accuracy. */
export function fixText(iso: string | null | undefined, accuracyM: number | null | undefined, now = Date.now(), staleMs = STALE_AFTER_MS): FixText {
  const at = iso ? Date.parse(iso) : NaN;
  return { time: fixTimeText(iso, now), stale: !Number.isFinite(at) || now - at > staleMs, accuracy: accuracyText(accuracyM) };
}

/**
 * The patient's shared position on a case (two minutes to stale): null while the patient has
 * shared none, even when the case has an intake location.
 */
export function caseFix(c: Pick<CaseDto, 'patient_location'>, now = Date.now()): FixText | null {
  const p = c.patient_location;
  if (!p || !pointOf(p)) return null;
  return fixText(p.updated_at, p.accuracy, now);
}

/**
 * An ambulance's last position, stale after its source's threshold (`thresholds` from
 * /api/config's stale_after_s; the defaults until it loads): null without one (accuracy is
 * not kept for ambulances).
 */
export function ambulanceFix(a: Pick<AmbulanceDto, 'location'>, now = Date.now(), thresholds: StaleThresholds = DEFAULT_STALE_AFTER_S): FixText | null {
  if (!pointOf(a.location)) return null;
  return fixText(a.location!.updated_at, null, now, staleAfterMs(a.location!.source, thresholds));
}

export interface Approach {
  meters: number;
  /** formatDistance: '850 m', '3.2 km'. */
  distance: string;
  /** Whole minutes, or null while the arrival model is unknown. */
  minutes: number | null;
  /** 'Arriving in about N min', or null while the arrival model is unknown. */
  eta: string | null;
}

/**
 * Straight-line distance from a unit to where it is going and its estimated arrival (contract
 * arrivalEstimate) with the server's `model`, for a unit in `step`. Null without both points, and
 * once the unit has arrived (on scene or later) or is not coming (cancelled): no distance to the
 * patient then, and no "Arriving in about 1 min" while on scene.
 */
export function approach(from: MaybePoint, to: MaybePoint, model: EtaModelParams | null | undefined, step: AssignmentStatus | null | undefined): Approach | null {
  const a = pointOf(from);
  const b = pointOf(to);
  if (!a || !b || !awaitsArrival(step)) return null;
  const meters = distanceMeters(a, b);
  const estimate = arrivalEstimate(a, b, model, step);
  return { meters, distance: formatDistance(meters), minutes: estimate?.minutes ?? null, eta: estimate ? arrivalText(estimate.minutes) : null };
}

/** The step of `ambulanceId` on a case: its current assignment's status when that is the ambulance's; else null. */
export const caseStep = (c: Pick<CaseDto, 'assignment'>, ambulanceId: number): AssignmentStatus | null =>
  c.assignment?.ambulance_id === ambulanceId ? c.assignment.status : null;

/** The ambulance a case names, by ambulance_id, else by license_plate (as the fleet screen matches them). */
export function assignedAmbulance<A extends Pick<AmbulanceDto, 'id' | 'license_plate'>>(
  c: Pick<CaseDto, 'ambulance_id' | 'license_plate'>, ambulances: readonly A[],
): A | undefined {
  if (c.ambulance_id != null) {
    const byId = ambulances.find((a) => a.id === c.ambulance_id);
    if (byId) return byId;
  }
  return c.license_plate != null ? ambulances.find((a) => a.license_plate === c.license_plate) : undefined;
}

export type CaseApproach = Approach & { ambulance: AmbulanceDto };

/**
 * For an active case with a known location (the best one: the patient's fix, else the intake
 * location) and an assigned ambulance with a position that has not arrived yet: the ambulance,
 * its distance to the patient and the ETA. Null otherwise.
 */
export function caseApproach(
  c: Pick<CaseDto, 'status' | 'ambulance_id' | 'license_plate' | 'latitude' | 'longitude' | 'assignment'>,
  ambulances: readonly AmbulanceDto[],
  model: EtaModelParams | null | undefined,
): CaseApproach | null {
  if (c.status !== 'active') return null;
  const ambulance = assignedAmbulance(c, ambulances);
  const result = ambulance ? approach(ambulance.location, c, model, caseStep(c, ambulance.id)) : null;
  return result && ambulance ? { ...result, ambulance } : null;
}

/** '1.2 km away', or with the ambulance named: 'TS09 EA 1002 is 1.2 km away'. */
export function distanceAwayText(a: Pick<Approach, 'distance'>, plate?: string): string {
  return plate ? `${plate} is ${a.distance} away` : `${a.distance} away`;
}
