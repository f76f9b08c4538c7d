import type { AssignmentStatus } from './callLife';
import { type LatLon, distanceMeters } from './geo';

/**
 * The one arrival estimate (issue 25, item 8): every screen that says "about N min" — the case
 * cards, the alerts, the New Case form's suggestions, the tracking page, the fleet and the map —
 * turns a straight-line distance into minutes here, with the server's model (GET /api/config's
 * `eta_model`, GET /api/track's `eta_model`, the suggestions' `model`; the server ranks with the
 * same function). docs/user-guide.md "How arrival is estimated".
 */

/** How arrivals are estimated: straight-line metres × road_factor at speed_kmh (default 1.3 and ETA_SPEED_KMH, or calibrated). */
export interface EtaModelParams { road_factor: number; speed_kmh: number }

/** Seconds to cover `straightM` of straight line on the model's roads (whole seconds); NaN for a model or distance that says nothing. */
export function arrivalSeconds(straightM: number, model: EtaModelParams): number {
  if (!(model.speed_kmh > 0) || !(model.road_factor > 0) || !Number.isFinite(straightM) || straightM < 0) return NaN;
  return Math.round((straightM * model.road_factor) / (model.speed_kmh / 3.6));
}

/** Whole minutes of an estimate in seconds, rounded up, at least 1 ("about 1 min" for a unit at the door). */
export const arrivalMinutes = (etaS: number): number => (Number.isFinite(etaS) ? Math.max(1, Math.ceil(etaS / 60)) : NaN);

/**
 * Whether a unit in this step is still on its way: dispatched or en route. On scene or any later
 * step (transporting, at hospital, cleared) it has arrived, and a cancelled one is not coming:
 * no estimate for those. Without a known step (null) there is no unit to estimate for.
 */
export const awaitsArrival = (step: AssignmentStatus | null | undefined): boolean => step === 'dispatched' || step === 'en_route';

export interface ArrivalEstimate {
  /** Straight-line metres from the unit to the place. */
  meters: number;
  seconds: number;
  minutes: number;
}

/**
 * The estimate for a unit at `from` heading to `to` in step `step`; null when the unit has
 * arrived (or is not coming), when a point is missing, or without a model (config not loaded).
 */
export function arrivalEstimate(
  from: LatLon | null | undefined, to: LatLon | null | undefined, model: EtaModelParams | null | undefined, step: AssignmentStatus | null | undefined,
): ArrivalEstimate | null {
  if (!from || !to || !model || !awaitsArrival(step)) return null;
  const meters = distanceMeters(from, to);
  const seconds = arrivalSeconds(meters, model);
  if (!Number.isFinite(seconds)) return null;
  return { meters, seconds, minutes: arrivalMinutes(seconds) };
}

/** "Arriving in about 7 min": the words of the cards and the tracking page. */
export const arrivalText = (minutes: number) => `Arriving in about ${minutes} min`;
