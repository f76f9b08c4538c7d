import type { HandoverFigures, HandoverReport } from '../../api/contract';
import { plural } from '../../domain/plural';
import { clockOr, minutesOf, percentOr } from './reportText';

/**
 * The Reports screen's Hospital handover section in words (GET /api/reports/handover): the
 * table's headings and cells and the section's summary, pure so that each is tested as written.
 */

/** The row of arrivals with no destination recorded (the report's `name` null). */
export const NO_DESTINATION = 'No destination recorded';
export const ALL_HOSPITALS = 'All hospitals';

export const hospitalLabel = (name: string | null) => name ?? NO_DESTINATION;

/** "1.4 h": hours lost, one decimal as the NHS figures are given. */
export const hoursLostText = (hours: number) => `${hours.toFixed(1)} h`;

/** "25 % (1)": a share of the handovers, with how many; a dash without handovers. */
export const withinText = (w: HandoverFigures['within_first_target']) => (w.share == null ? '–' : `${percentOr(w.share)} (${w.n})`);

/** The handover table's columns, named after the targets in force (HANDOVER_TARGETS: 15, 30 … 60 minutes by default). */
export function handoverColumns(targetsMin: readonly number[]): string[] {
  return [
    'Hospital', 'Arrivals', 'Handed over', 'Median handover', '90th percentile',
    `Within ${targetsMin[0]} min`, `Within ${targetsMin[1]} min`, `Over ${targetsMin[targetsMin.length - 1]} min`, `Hours lost beyond ${targetsMin[0]} min`,
  ];
}

/** One group's handover cells, in handoverColumns' order after the hospital. */
export function handoverCells(f: HandoverFigures): string[] {
  return [
    String(f.arrivals), String(f.handover.n), clockOr(f.handover.p50_s), clockOr(f.handover.p90_s),
    withinText(f.within_first_target), withinText(f.within_second_target), String(f.over_last_target), hoursLostText(f.hours_lost),
  ];
}

type Row = { key: string; cells: string[] };
const rowKey = (h: HandoverReport['hospitals'][number]) => `${h.hospital_id ?? ''}|${h.name ?? ''}`;

/** The handover table: a row per destination with arrivals, as the server orders them (by name, no destination last), then all of them. */
export function handoverRows(report: HandoverReport): Row[] {
  return [
    ...report.hospitals.filter((h) => h.arrivals > 0).map((h) => ({ key: rowKey(h), cells: [hospitalLabel(h.name), ...handoverCells(h)] })),
    { key: 'overall', cells: [ALL_HOSPITALS, ...handoverCells(report.overall)] },
  ];
}

export const PREALERT_COLUMNS = ['Hospital', 'Pre-alerts sent', 'Acknowledged', 'Time to acknowledge: median', 'Time to acknowledge: 90th percentile'];

const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);

const prealertCells = (f: HandoverFigures) => [
  String(f.prealerts_sent), `${f.prealerts_acknowledged} (${percentOr(share(f.prealerts_acknowledged, f.prealerts_sent))})`,
  clockOr(f.time_to_acknowledge.p50_s), clockOr(f.time_to_acknowledge.p90_s),
];

/** The pre-alert table: a row per hospital pre-alerts were sent to, then all of them. */
export function prealertRows(report: HandoverReport): Row[] {
  return [
    ...report.hospitals.filter((h) => h.prealerts_sent > 0).map((h) => ({ key: rowKey(h), cells: [hospitalLabel(h.name), ...prealertCells(h)] })),
    { key: 'overall', cells: [ALL_HOSPITALS, ...prealertCells(report.overall)] },
  ];
}

/** The chart's bars: per destination with arrivals, its median and 90th percentile handover in minutes (null: none handed over, no bar). */
export function handoverBars(report: HandoverReport): { label: string; p50: number | null; p90: number | null }[] {
  return report.hospitals
    .filter((h) => h.arrivals > 0)
    .map((h) => ({ label: hospitalLabel(h.name), p50: minutesOf(h.handover.p50_s), p90: minutesOf(h.handover.p90_s) }));
}

/**
 * The section's summary, e.g. "6 arrivals at hospital, 4 handed over; 90th percentile 1:10:00; 25 %
 * within 15 min; 1 over 60 min; 1.4 hours lost beyond 15 min."
 */
export function handoverSummary(report: HandoverReport): string {
  const o = report.overall;
  const first = report.targets_min[0];
  const last = report.targets_min[report.targets_min.length - 1];
  const head = `${plural(o.arrivals, 'arrival')} at hospital, ${o.handover.n} handed over`;
  if (o.handover.n === 0) return `${head}.`;
  return `${head}; 90th percentile ${clockOr(o.handover.p90_s)}; ${percentOr(o.within_first_target.share)} within ${first} min; `
    + `${o.over_last_target} over ${last} min; ${o.hours_lost.toFixed(1)} hours lost beyond ${first} min.`;
}
