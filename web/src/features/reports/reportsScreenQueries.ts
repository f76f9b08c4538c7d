import type { DemandReport } from '../../api/contract';
import { queries } from '../../api/queries';
import type { ReportPeriod } from './reportPeriod';

/**
 * The report queries the Reports screen keeps for one period (the load script,
 * scripts/reportsScreenLoad.ts, replays the same). Response times, utilisation and handover are asked for
 * over the whole period: percentiles of two parts cannot be combined, and a deleted unit's time on
 * shift ends with its last assignment in the period. Demand is counts, which add up exactly: a
 * period with past days that reaches today is asked for as its past days (never refreshed, see
 * reportRefresh.ts) and today onwards (a day's calls, refreshed live), summed by `sumDemand`.
 */
export function reportsScreenQueries(period: ReportPeriod, today: string) {
  const split = period.from < today && period.to > today;
  return {
    responseTimes: queries.reports.responseTimes(period),
    utilisation: queries.reports.utilisation(period),
    handover: queries.reports.handover(period),
    demand: split
      ? [queries.reports.demand({ ...period, to: today }), queries.reports.demand({ ...period, from: today })]
      : [queries.reports.demand(period)],
  };
}

/** Every query of the screen, for the load script and the Refresh button. */
export const allReportsScreenQueries = (period: ReportPeriod, today: string) => {
  const q = reportsScreenQueries(period, today);
  return [q.responseTimes, q.utilisation, q.handover, ...q.demand];
};

/** The period's demand from its adjacent parts: the counts of each hour of the week added. */
export function sumDemand(period: ReportPeriod, parts: readonly DemandReport[]): DemandReport {
  const counts = Array.from({ length: 7 }, (_, d) => Array.from({ length: 24 }, (_, h) => parts.reduce((sum, p) => sum + (p.counts[d]?.[h] ?? 0), 0)));
  return { from: parts[0]?.from ?? period.from, to: parts.at(-1)?.to ?? period.to, tz: period.tz, counts };
}
