import { type TrailPoint, recentTrail } from '../api/contract';

const time = (iso: string) => Date.parse(iso);

/**
 * A trail extended by a live position: appended only when it is newer than the trail's last
 * point (an older or repeated position never rewrites it), then kept to the contract's
 * trail bounds. Without a trail yet (still loading), nothing to extend: undefined stays undefined.
 */
export function extendTrail(
  trail: TrailPoint[] | undefined,
  point: { latitude: number; longitude: number; recorded_at: string | null | undefined },
): TrailPoint[] | undefined {
  if (!trail || !point.recorded_at || !Number.isFinite(time(point.recorded_at))) return trail;
  const last = trail.at(-1);
  if (last && time(last.recorded_at) >= time(point.recorded_at)) return trail;
  return recentTrail([...trail, { latitude: point.latitude, longitude: point.longitude, recorded_at: point.recorded_at }]);
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
