import {
  type AssignmentDto, type HandoverBand, DEFAULT_HANDOVER_TARGETS, DESTINATION_REASON_LABELS, handoverBand, handoverBandText,
} from '../api/contract';
import { formatClock } from './callLife';

/**
 * The handover clock (issue 30, DOMAIN.md §6): from arrival at the hospital (eTimes.11) to the
 * transfer of care (eTimes.12), judged against HANDOVER_TARGETS (15, 30, 45, 60 min by default)
 * with words as well as colour. Pure: the board, the driver page and the hospital page show it.
 */

export interface HandoverClock {
  /** Seconds from arrival to the handover, or to now while it waits. */
  elapsedS: number;
  /** Whether the handover is done (the clock stopped). */
  done: boolean;
  band: HandoverBand;
  /** "Within 15 min", "Past 30 min", "Past 45 min: release to respond". */
  words: string;
  /** "12:34" (or "1:02:03"). */
  clock: string;
}

/** The targets in force: the config's, else the NHS's. */
export const handoverTargets = (config: { handover_targets?: number[] } | undefined): readonly number[] =>
  config?.handover_targets?.length === 4 ? config.handover_targets : DEFAULT_HANDOVER_TARGETS;

/** The clock of a unit that arrived at hospital; null before it arrived or when it cleared without ever arriving. */
export function handoverClock(a: Pick<AssignmentDto, 'at_hospital_at' | 'handover_at' | 'status'>, nowMs: number, targets: readonly number[]): HandoverClock | null {
  if (!a.at_hospital_at) return null;
  const from = Date.parse(a.at_hospital_at);
  const done = a.handover_at != null;
  // A unit that cleared without a recorded handover has no clock left to run.
  if (!done && a.status !== 'at_hospital') return null;
  const to = done ? Date.parse(a.handover_at!) : nowMs;
  const elapsedS = Math.max(0, Math.floor((to - from) / 1000));
  const band = handoverBand(elapsedS, targets);
  return { elapsedS, done, band, words: handoverBandText(band, targets), clock: formatClock(elapsedS) };
}

/** Colours of the bands (dark enough for white text); the words always go with them. */
export const HANDOVER_BAND_COLORS: Record<HandoverBand, string> = {
  0: '#2e7d32',
  1: '#8a5a00',
  2: '#b45309',
  3: '#b71c1c',
  4: '#6a0f0f',
};

/** "Royal General (Closest)": where the unit conveys its patient, and why. */
export const destinationText = (d: NonNullable<AssignmentDto['destination']>) => `${d.name} (${DESTINATION_REASON_LABELS[d.reason]})`;
