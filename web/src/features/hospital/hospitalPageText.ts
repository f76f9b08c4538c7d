import {
  ACTIVATION_LABELS, type HospitalPageDto, type HospitalUnitDto, type PatientSex, type PrealertDto, type PrealertSigns,
} from '../../api/contract';
import { formatClock } from '../../domain/callLife';

/**
 * The words of a hospital's own page (issue 30): a unit's live arrival estimate, its ATMIST
 * pre-alert in the order crews give it, and which pre-alerts are new since the last read. Pure.
 */

/** Every answer that means the link will not work again: unknown hospital, wrong or replaced token. */
export const DEAD_LINK_STATUSES: readonly number[] = [401, 403, 404];
export const DEAD_LINK_TEXT = 'This hospital link is not valid. Ask the ambulance service for a new one.';
export const LOAD_FAILED_TEXT = "Could not load this hospital's page. Check the connection and try again.";
export const NO_INBOUND_TEXT = 'No ambulances are coming in.';
export const NO_ARRIVED_TEXT = 'No ambulances are waiting for handover.';

/** "12:03": hours and minutes in the page's locale; '' for no time. */
export function hhmm(value: string | number | null | undefined): string {
  if (value == null || value === '') return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** "12:03" today, "7 Dec, 12:03" another day: a status may have been set long ago. */
export function dayTime(value: string | null | undefined, nowMs: number): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  if (d.toDateString() === new Date(nowMs).toDateString()) return hhmm(value);
  return d.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/**
 * Seconds left of a unit's arrival estimate, counted down from the answer's `server_time` by the
 * server's clock as the browser estimates it (never below 0); null when there is no estimate.
 */
export function etaLeftS(unit: Pick<HospitalUnitDto, 'eta_s'>, serverTime: string, nowMs: number): number | null {
  if (unit.eta_s == null || !Number.isFinite(unit.eta_s)) return null;
  const since = Math.max(0, (nowMs - Date.parse(serverTime)) / 1000);
  return Math.max(0, Math.round(unit.eta_s - since));
}

/** "ETA 7:05 (about 12:10)", "Arriving now", or why there is none yet. */
export function etaText(unit: Pick<HospitalUnitDto, 'eta_s' | 'status'>, serverTime: string, nowMs: number): string {
  const left = etaLeftS(unit, serverTime, nowMs);
  if (left == null) return unit.status === 'transporting' ? 'ETA unknown: no recent position' : 'Not on the way yet';
  if (left < 30) return 'Arriving now';
  return `ETA ${formatClock(left)} (about ${hhmm(nowMs + left * 1000)})`;
}

const SEX_WORDS: Record<PatientSex, string> = { female: 'female', male: 'male', unknown: 'sex unknown' };

/** "54, male", "Age unknown, female". */
export const ageSexText = (p: Pick<PrealertDto, 'age' | 'sex'>) => `${p.age == null ? 'Age unknown' : p.age}, ${SEX_WORDS[p.sex] ?? p.sex}`;

/** "HR 112 · BP 92 · RR 24 · SpO2 91% · GCS 14 · Temp 37.8 °C"; the unknown ones left out ("Not given" when none is known). */
export function signsText(s: PrealertSigns): string {
  const parts = [
    s.hr != null && `HR ${s.hr}`,
    s.sbp != null && `BP ${s.sbp}`,
    s.rr != null && `RR ${s.rr}`,
    s.spo2 != null && `SpO2 ${s.spo2}%`,
    s.gcs != null && `GCS ${s.gcs}`,
    s.temp != null && `Temp ${s.temp} °C`,
  ].filter((x): x is string => typeof x === 'string');
  return parts.length ? parts.join(' · ') : 'Not given';
}

const given = (text: string) => text.trim() || 'Not given';

/** A pre-alert as the crew gives it (ATMIST): Age/sex, Time of incident, Mechanism, Injuries, Signs, Treatment, then Requirements and the activation. */
export function atmistRows(p: PrealertDto): { term: string; text: string }[] {
  return [
    { term: 'Age / sex', text: ageSexText(p) },
    { term: 'Time of incident', text: p.time_of_incident ? hhmm(p.time_of_incident) : 'Not given' },
    { term: 'Mechanism', text: given(p.mechanism) },
    { term: 'Injuries', text: given(p.injuries) },
    { term: 'Signs', text: signsText(p.signs) },
    { term: 'Treatment', text: given(p.treatment) },
    { term: 'Requirements', text: given(p.requirements) },
    { term: 'Activation', text: ACTIVATION_LABELS[p.activation] ?? p.activation },
  ];
}

/** Every pre-alert on the page (coming in and arrived). */
export const prealertsOf = (page: Pick<HospitalPageDto, 'inbound' | 'arrived'>) =>
  [...page.inbound, ...page.arrived].flatMap((u) => (u.prealert ? [{ unit: u, prealert: u.prealert }] : []));

/** What the live region says of a pre-alert not seen before: "New pre-alert: AMB-1001, P1, STEMI, ETA 6:00". */
export function newPrealertText(unit: HospitalUnitDto, p: PrealertDto, serverTime: string, nowMs: number): string {
  const activation = p.activation === 'none' ? '' : `, ${ACTIVATION_LABELS[p.activation]}`;
  const eta = etaLeftS(unit, serverTime, nowMs);
  return `New pre-alert: ${unit.license_plate ?? 'unit'}, P${unit.priority}${activation}${eta != null ? `, ETA ${formatClock(eta)}` : ''}`;
}

/** The plate a button names (axe: each unit's buttons told apart); the call's short id when the unit has none. */
export const unitName = (u: Pick<HospitalUnitDto, 'license_plate' | 'call_ref'>) => u.license_plate ?? `call ${u.call_ref}`;
