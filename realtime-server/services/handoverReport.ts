import type { HandoverFigures, HandoverReport, ReportPeriod } from '../contract';
import type { HandoverArrivalRow, HandoverPrealertRow } from '../../db/repositories/reportRepository';
import { isoMs } from './reportTime';
import { Column, intervalFigures, share } from './responseTimes';

/**
 * The handover report (issue 30; docs/user-guide.md "The handover report"): per destination and
 * overall, the period's arrivals at hospital and their handover times (eTimes.11 → eTimes.12)
 * against HANDOVER_TARGETS, and the pre-alerts sent in the period with the time the hospital took
 * to acknowledge them. Rows come one at a time (reportRepository streams them); a group holds its
 * times as numbers in a growing typed array, and the percentiles are selected, as for response times.
 */


class Group {
  arrivals = 0;
  readonly handovers = new Column(64);
  withinFirst = 0;
  withinSecond = 0;
  overLast = 0;
  /** Time beyond the first target, summed (ms). */
  lostMs = 0;
  prealertsSent = 0;
  prealertsAcknowledged = 0;
  readonly acks = new Column(64);

  constructor(readonly hospital_id: number | null, readonly name: string | null) {}
}

/** A difference of two stored times in ms, NaN when either is missing or it is negative (broken data, left out). */
function span(startIso: string, endIso: string | null): number {
  if (endIso == null) return NaN;
  const ms = isoMs(endIso) - isoMs(startIso);
  return ms >= 0 ? ms : NaN;
}

/** Several columns as one (the overall figures are every group's). */
function joined(columns: readonly Column[]): Float64Array {
  const out = new Float64Array(columns.reduce((s, c) => s + c.length, 0));
  let at = 0;
  for (const c of columns) {
    out.set(c.view(), at);
    at += c.length;
  }
  return out;
}

const hours2 = (ms: number) => Math.round(ms / 36_000) / 100;

/** The handover report, an arrival and a pre-alert at a time (each once, in any order). */
export class HandoverTally {
  private readonly groups = new Map<string, Group>();
  private readonly firstMs: number;
  private readonly secondMs: number;
  private readonly lastMs: number;

  /** `targetsMin`: HANDOVER_TARGETS, minutes ascending (the first two for the shares, the last for "over"). */
  constructor(private readonly period: ReportPeriod, private readonly targetsMin: readonly number[]) {
    this.firstMs = targetsMin[0] * 60_000;
    this.secondMs = targetsMin[1] * 60_000;
    this.lastMs = targetsMin[targetsMin.length - 1] * 60_000;
  }

  private group(hospitalId: number | null, name: string | null): Group {
    const key = `${hospitalId ?? ''}\u0000${name ?? ''}`;
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = new Group(hospitalId, name)));
    return g;
  }

  /** One arrival: counted for its destination; its handover time when known. */
  addArrival = (r: HandoverArrivalRow) => {
    const g = this.group(r[0], r[1]);
    g.arrivals++;
    const ms = span(r[2], r[3]);
    if (Number.isNaN(ms)) return;
    g.handovers.push(ms);
    if (ms <= this.firstMs) g.withinFirst++;
    else g.lostMs += ms - this.firstMs;
    if (ms <= this.secondMs) g.withinSecond++;
    if (ms > this.lastMs) g.overLast++;
  };

  /** One pre-alert: counted for the hospital it was sent to; its time to acknowledgement when acknowledged. */
  addPrealert = (r: HandoverPrealertRow) => {
    const g = this.group(r[0], r[1]);
    g.prealertsSent++;
    if (r[3] == null) return;
    g.prealertsAcknowledged++;
    const ms = span(r[2], r[3]);
    if (!Number.isNaN(ms)) g.acks.push(ms);
  };

  report(): HandoverReport {
    const groups = [...this.groups.values()].sort((a, b) => {
      if (a.name == null || b.name == null) return a.name == null ? (b.name == null ? 0 : 1) : -1;
      return a.name < b.name ? -1 : a.name > b.name ? 1 : (a.hospital_id ?? Infinity) - (b.hospital_id ?? Infinity);
    });
    return {
      from: this.period.from, to: this.period.to, tz: this.period.tz,
      targets_min: [...this.targetsMin],
      overall: figures(groups),
      hospitals: groups.map((g) => ({ hospital_id: g.hospital_id, name: g.name, ...figures([g]) })),
    };
  }
}

/** The figures of groups taken together. */
function figures(groups: readonly Group[]): HandoverFigures {
  const sum = (f: (g: Group) => number) => groups.reduce((s, g) => s + f(g), 0);
  const arrivals = sum((g) => g.arrivals);
  const handover = intervalFigures(groups.length === 1 ? groups[0].handovers.view() : joined(groups.map((g) => g.handovers)), arrivals);
  const withinFirst = sum((g) => g.withinFirst);
  const withinSecond = sum((g) => g.withinSecond);
  const sent = sum((g) => g.prealertsSent);
  return {
    arrivals,
    handover,
    within_first_target: { n: withinFirst, share: share(withinFirst, handover.n) },
    within_second_target: { n: withinSecond, share: share(withinSecond, handover.n) },
    over_last_target: sum((g) => g.overLast),
    hours_lost: hours2(sum((g) => g.lostMs)),
    prealerts_sent: sent,
    prealerts_acknowledged: sum((g) => g.prealertsAcknowledged),
    time_to_acknowledge: intervalFigures(groups.length === 1 ? groups[0].acks.view() : joined(groups.map((g) => g.acks)), sent),
  };
}

/** The handover report of a period's arrivals and pre-alerts (each once, in any order). */
export function buildHandover(
  arrivals: Iterable<HandoverArrivalRow>, prealerts: Iterable<HandoverPrealertRow>, period: ReportPeriod, targetsMin: readonly number[],
): HandoverReport {
  const tally = new HandoverTally(period, targetsMin);
  for (const a of arrivals) tally.addArrival(a);
  for (const p of prealerts) tally.addPrealert(p);
  return tally.report();
}
