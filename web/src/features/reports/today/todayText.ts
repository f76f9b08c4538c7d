import { type GroupReport, type PriorityReport, DEFAULT_REPORT_DAYS } from '../../../api/contract';
import { formatClock, priorityTag } from '../../../domain/callLife';
import { plural } from '../../../domain/plural';

/**
 * The words of the live figures: durations as clocks, a 90th percentile against its target in
 * words as well as colour, and the admin's "measured" line. Pure, so each text is tested.
 */

/** "9:40", "1:02:09"; a dash for no figure (never 0:00, which would claim an instant arrival). */
export const durationText = (seconds: number | null | undefined) => (seconds == null ? '—' : formatClock(seconds));

export type Verdict = 'within' | 'over';

/** A 90th percentile at the target meets it (NHS ARP: "within" the standard); null without a figure. */
export const verdictOf = (p90S: number | null, targetS: number): Verdict | null => (p90S == null ? null : p90S <= targetS ? 'within' : 'over');

export const VERDICT_TEXT: Record<Verdict, string> = { within: 'Within target', over: 'Over target' };


/** "1 open call past target now": under a priority's row, as its percentile counts only the calls reached. */
export const openPastTargetText = (n: number) => `${plural(n, 'open call')} past target now`;

/** "3 calls" */
export const callsText = (n: number) => plural(n, 'call');

/** "P1 · 3 calls · 90th percentile 9:40 · target 15:00", or "… · no arrival yet · …" while no crew has reached a scene. */
export function priorityLine(r: Pick<PriorityReport, 'priority' | 'calls' | 'target_s' | 'intervals'>): string {
  const p90 = r.intervals.response.p90_s;
  const middle = p90 == null ? 'no arrival yet' : `90th percentile ${durationText(p90)}`;
  return [priorityTag(r.priority), callsText(r.calls), middle, `target ${durationText(r.target_s)}`].join(' · ');
}

/** "87 %" (rounded down to whole percent, so 99.6 % never reads as 100 %). */
// The epsilon keeps float noise (0.29 × 100 = 28.999…) from losing a percent.
export const shareText = (share: number) => `${Math.floor(share * 100 + 1e-9)} %`;

/** The admin's line: what this centre achieved over the endpoint's default period. */
export function measuredLine(overall: Pick<GroupReport, 'calls' | 'intervals' | 'response_within_target'>): string {
  const head = `Measured here, last ${DEFAULT_REPORT_DAYS} days:`;
  if (overall.calls === 0) return `${head} no calls yet`;
  const { mean_s: mean, p90_s: p90 } = overall.intervals.response;
  if (mean == null) return `${head} ${callsText(overall.calls)}, none reached on scene yet`;
  const share = overall.response_within_target.share;
  const parts = [`mean response ${durationText(mean)}`, `90th percentile ${durationText(p90)}`];
  if (share != null) parts.push(`${shareText(share)} of calls within target`);
  return `${head} ${parts.join(' · ')}`;
}
