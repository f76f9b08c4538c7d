import { INTERVAL_LABELS, type PriorityReport } from '../../api/contract';
import { formatClock, priorityTag } from '../../domain/callLife';
import { plural } from '../../domain/plural';

/** A duration as a clock ("13:20", "1:02:09"), a dash when unknown (never 0 for "no figure"). */
export const clockOr = (seconds: number | null) => (seconds == null ? '–' : formatClock(seconds));

/** Seconds as minutes for a chart axis, one decimal; null stays null (a gap, not a zero). */
export const minutesOf = (seconds: number | null) => (seconds == null ? null : Math.round(seconds / 6) / 10);

/** "91 %", a dash when unknown. */
export const percentOr = (share: number | null) => (share == null ? '–' : `${Math.round(share * 100)} %`);

export type Verdict = 'met' | 'missed' | 'unknown';

/** Whether the 90th-percentile response met its target (the standard the service is judged by). */
export const verdictOf = (p: Pick<PriorityReport, 'intervals' | 'target_s'>): Verdict => {
  const p90 = p.intervals.response.p90_s;
  return p90 == null ? 'unknown' : p90 <= p.target_s ? 'met' : 'missed';
};

export const VERDICT_TEXT: Record<Verdict, string> = {
  met: 'Target met',
  missed: 'Target missed',
  unknown: 'No response times',
};


/**
 * One priority's tile in words, e.g. "P1 Life-threatening · 42 calls · 90th percentile 13:20
 * (target 15:00) · 91 % within target": what a screen reader says and what the tile shows.
 */
export function tileText(p: PriorityReport, label: string): string {
  const head = `${priorityTag(p.priority)} ${label} · ${plural(p.calls, 'call')}`;
  if (p.intervals.response.p90_s == null) return `${head} · no response times yet (target ${formatClock(p.target_s)})`;
  return `${head} · 90th percentile ${formatClock(p.intervals.response.p90_s)} (target ${formatClock(p.target_s)}) · ${percentOr(p.response_within_target.share)} within target`;
}

/** The two arrivals a call's response may stop at, as the screen names them ("First on scene", "Able to convey on scene"). */
export const ARRIVALS = ['first_response', 'transport_response'] as const;

/**
 * Where a priority's response clock stops, in words: the first unit on scene, or the first unit
 * able to convey (a call nobody conveyed stopping at the first unit on scene; the server's rule).
 */
export function clockStopText(stop: PriorityReport['clock_stop']): string {
  return stop === 'first'
    ? INTERVAL_LABELS.first_response
    : `${INTERVAL_LABELS.transport_response} (${INTERVAL_LABELS.first_response.toLowerCase()} when nobody conveyed)`;
}

/** 0–1: how a count compares with the busiest hour (0 when there were no calls at all). */
export const intensityOf = (count: number, max: number) => (max > 0 ? count / max : 0);

/**
 * A heat cell's fill strength (opacity of the chart colour over the paper) and whether its
 * number is written in the colour's contrast text. The range skips the middle, where neither
 * dark nor light text would reach 4.5:1 on the blend.
 */
export function heatFill(intensity: number): { opacity: number; strong: boolean } {
  if (intensity < 0.5) return { opacity: 0.05 + 0.35 * (intensity / 0.5), strong: false };
  return { opacity: 0.72 + 0.28 * ((intensity - 0.5) / 0.5), strong: true };
}

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** "08:00" for hour 8: the hour a column of the heat map starts. */
export const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** Seconds as hours with one decimal ("12.5 h"), for utilisation tables. */
export const hoursText = (seconds: number) => `${(seconds / 3600).toFixed(1)} h`;
