import type { TrailPoint } from '../api/contract';

/** What GET /api/ambulances/{id}/trail keeps: the last 30 minutes, at most 200 points. */
export const TRAIL_WINDOW_MS = 30 * 60_000;
export const TRAIL_MAX_POINTS = 200;

const time = (iso: string) => Date.parse(iso);

/**
 * A trail extended by a live position: appended only when it is newer than the trail's last
 * point (an older or repeated position never rewrites it), then trimmed to the window and the
 * point limit. Without a trail yet (still loading), nothing to extend: undefined stays undefined.
 */
export function extendTrail(
  trail: TrailPoint[] | undefined,
  point: { latitude: number; longitude: number; recorded_at: string | null | undefined },
): TrailPoint[] | undefined {
  if (!trail || !point.recorded_at || !Number.isFinite(time(point.recorded_at))) return trail;
  const last = trail.at(-1);
  if (last && time(last.recorded_at) >= time(point.recorded_at)) return trail;
  const next = [...trail, { latitude: point.latitude, longitude: point.longitude, recorded_at: point.recorded_at }];
  const since = time(point.recorded_at) - TRAIL_WINDOW_MS;
  const kept = next.filter((p) => time(p.recorded_at) >= since);
  return kept.length > TRAIL_MAX_POINTS ? kept.slice(-TRAIL_MAX_POINTS) : kept;
}

/** The polyline of a trail: [lat, lon] pairs, consecutive duplicates dropped; empty below two points. */
export function trailLine(trail: readonly TrailPoint[] | undefined): [number, number][] {
  const line: [number, number][] = [];
  for (const p of trail ?? []) {
    const prev = line.at(-1);
    if (!prev || prev[0] !== p.latitude || prev[1] !== p.longitude) line.push([p.latitude, p.longitude]);
  }
  return line.length >= 2 ? line : [];
}
