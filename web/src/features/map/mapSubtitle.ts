import { plural } from '../../domain/plural';

/**
 * The Ambulance Tracker's subtitle. It says "moving live" only for markers that are live:
 * when every position is stale it says so instead of promising movement.
 */
export function mapSubtitle({ located, live, patients, known }: { located: number; live: number; patients: number; known: boolean }): string {
  if (!known || located === 0) return 'Every ambulance with a known position';
  const onMap = `${plural(located, 'ambulance', 'ambulances')} on the map`;
  const motion = live === located
    ? `${onMap}, moving live`
    : live === 0
      ? `${onMap} · No live positions — last known shown`
      : `${onMap} · ${live} moving live, ${located - live} last known only`;
  return patients > 0 ? `${motion} · ${plural(patients, 'patient', 'patients')} sharing a location` : motion;
}
