import { plural } from '../../domain/plural';

/**
 * The Ambulance Tracker's subtitle. It says "moving live" only for markers that are live:
 * when every position is stale it says so instead of promising movement. Of the calls on the
 * map, only those whose patient shared a position are said to share one (the others stand at
 * the place given on the phone).
 */
export function mapSubtitle({ located, live, calls, sharing, known }: {
  located: number;
  live: number;
  /** Calls drawn on the map (the patient's fix or the intake location). */
  calls: number;
  /** Of those, the calls whose patient shared a position. */
  sharing: number;
  known: boolean;
}): string {
  if (!known || located === 0) return 'Every ambulance with a known position';
  const onMap = `${plural(located, 'ambulance', 'ambulances')} on the map`;
  const motion = live === located
    ? `${onMap}, moving live`
    : live === 0
      ? `${onMap} · No live positions — last known shown`
      : `${onMap} · ${live} moving live, ${located - live} last known only`;
  if (calls === 0) return motion;
  if (sharing === calls) return `${motion} · ${plural(sharing, 'patient', 'patients')} sharing a location`;
  const shared = sharing === 0 ? 'no patient sharing a location' : `${plural(sharing, 'patient', 'patients')} sharing a location`;
  return `${motion} · ${plural(calls, 'call', 'calls')} on the map, ${shared}`;
}
