/** One point of an ambulance's recent path. */
export interface TrailPoint { latitude: number; longitude: number; recorded_at: string }

/**
 * How much of an ambulance's recent path is shown: the server answers the last
 * TRAIL_WINDOW_MS at most TRAIL_MAX_POINTS points, and a page extending a trail with live
 * positions keeps it to the same bounds, so that a reload draws what was on screen.
 */
export const TRAIL_WINDOW_MS = 30 * 60_000;
export const TRAIL_MAX_POINTS = 200;

/** GET /api/ambulances/{id}/trail (staff): the ambulance's recent trail, oldest first. */
export interface TrailResponse { positions: TrailPoint[] }

/** A trail (oldest first) cut to the window before its newest point and to the point limit. */
export function recentTrail(trail: TrailPoint[]): TrailPoint[] {
  const newest = trail.at(-1);
  if (!newest) return trail;
  const since = Date.parse(newest.recorded_at) - TRAIL_WINDOW_MS;
  const kept = trail.filter((p) => Date.parse(p.recorded_at) >= since);
  return kept.length > TRAIL_MAX_POINTS ? kept.slice(-TRAIL_MAX_POINTS) : kept;
}
