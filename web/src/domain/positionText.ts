import {
  type CaseDto, type PositionSourceName, type StaleThresholds,
  DEFAULT_STALE_AFTER_S, POSITION_SOURCES, formatDistance, staleAfterMs,
} from '../api/contract';

/**
 * Words about where a position came from and how trustworthy it is: an ambulance's source and
 * battery, and a call's two locations (the address given on the phone, the patient's GPS) when
 * they disagree. Pure, for the fleet table, Manage Ambulances, the boards and the map.
 */

/** Below this percentage a device's battery is shown as low (it may soon stop reporting). */
export const LOW_BATTERY_PERCENT = 20;

export interface BatteryText {
  /** 'Battery 23%'. */
  label: string;
  low: boolean;
  /** Said beside a low battery, so it is not told by colour alone. */
  warning: string | null;
}

/** The battery a device reported, or null when it reported none (the driver page, staff, an app without it). */
export function batteryText(percent: number | null | undefined): BatteryText | null {
  if (percent == null || !Number.isFinite(percent)) return null;
  const p = Math.round(Math.min(100, Math.max(0, percent)));
  const low = p < LOW_BATTERY_PERCENT;
  return { label: `Battery ${p}%`, low, warning: low ? 'Low battery' : null };
}

const SOURCE_WORDS: Record<PositionSourceName, string> = {
  osmand: 'via Traccar/OsmAnd',
  owntracks: 'via OwnTracks',
  driver: 'via the driver page',
  staff: 'set by staff',
};

/** 'via OwnTracks', 'set by staff'…; null for a position of unknown source. */
export function sourceText(source: string | null | undefined): string | null {
  return (POSITION_SOURCES as readonly string[]).includes(source ?? '') ? SOURCE_WORDS[source as PositionSourceName] : null;
}

/** "No position from this ambulance for more than 2 minutes" (10 minutes for a tracker set to 600 s). */
export function staleHint(source: string | null | undefined, thresholds: StaleThresholds = DEFAULT_STALE_AFTER_S): string {
  const s = Math.round(staleAfterMs(source, thresholds) / 1000);
  const span = s % 60 === 0 ? `${s / 60} minute${s === 60 ? '' : 's'}` : `${s} seconds`;
  return `No position from this ambulance for more than ${span}`;
}

/** "Address given: 12 High Street"; null when the call has no intake location. */
export function intakeAddressText(c: Pick<CaseDto, 'intake_location'>): string | null {
  const address = c.intake_location?.address.trim();
  return address ? `Address given: ${address}` : null;
}

/** "Patient's GPS is 1.2 km from the address given"; null when the two agree or either is missing. */
export function mismatchText(c: Pick<CaseDto, 'location_mismatch_m'>): string | null {
  const m = c.location_mismatch_m;
  return m == null || !Number.isFinite(m) ? null : `Patient's GPS is ${formatDistance(m)} from the address given`;
}
