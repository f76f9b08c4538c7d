import { type AmbulanceDto, type CaseDto, type ConfigResponse, type Priority, PRIORITIES } from '../../api/contract';
import { activeCasesOf } from '../../domain/caseRules';
import { boardOrder, isPastTarget, priorityTag } from '../../domain/callLife';
import { waitWords } from '../alerts/alertRules';
import { fleetCounts, utilizationPercent } from '../../domain/fleetRules';

export interface SummaryStats {
  activeCases: number;
  /** Status available and on no active case: the fleet screen's Available. */
  available: number;
  /** Every ambulance in service: the fleet screen's On Emergency plus its Busy. */
  busy: number;
  onEmergency: number;
  /** Busy with no active case (the fleet screen's Busy). */
  busyNoCase: number;
  total: number;
  /** Busy divided by total, rounded; 0 with no fleet. */
  utilization: number;
}

/**
 * The operator summary's numbers, from the live cases and ambulances, classified exactly as
 * the fleet screen classifies them (SPEC §4), so the two screens never disagree.
 */
export function summaryStats(cases: CaseDto[], ambulances: AmbulanceDto[]): SummaryStats {
  const counts = fleetCounts(ambulances, cases);
  const busy = counts.emergency + counts.busy;
  return {
    activeCases: activeCasesOf(cases).length,
    available: counts.available,
    busy,
    onEmergency: counts.emergency,
    busyNoCase: counts.busy,
    total: ambulances.length,
    utilization: utilizationPercent(busy, ambulances.length),
  };
}

/** The Busy Ambulances tile's breakdown, in the fleet screen's words. */
export const busyBreakdown = (s: Pick<SummaryStats, 'onEmergency' | 'busyNoCase'>) =>
  `${s.onEmergency} On Emergency · ${s.busyNoCase} Busy`;

type CallRow = Pick<CaseDto, 'status' | 'priority' | 'call_received_at' | 'assignment' | 'assignments'>;

export interface CallStats {
  /** Calls waiting for an ambulance (pending). */
  waiting: number;
  /** The waiting call to take first (the board's first waiting: the most urgent, then the oldest) and how long it has waited. */
  firstWaiting: { priority: Priority; waitedMs: number } | null;
  /** Open calls past their response target with nobody on scene yet, by priority (the board's red "Past target"). */
  pastTarget: Record<Priority, number>;
  pastTargetTotal: number;
}

/** What is urgent right now, from the live board's calls: the dashboard's Waiting Calls and Past Target. */
export function callStats(cases: readonly CallRow[], config: Pick<ConfigResponse, 'priorities'> & Partial<Pick<ConfigResponse, 'clock_stops'>> | undefined, nowMs: number): CallStats {
  const waiting = cases.filter((c) => c.status === 'pending');
  const first = boardOrder(waiting)[0];
  const pastTarget = Object.fromEntries(PRIORITIES.map((p) => [p, 0])) as Record<Priority, number>;
  for (const c of cases) if (isPastTarget(c, config, nowMs)) pastTarget[c.priority] += 1;
  return {
    waiting: waiting.length,
    firstWaiting: first ? { priority: first.priority, waitedMs: Math.max(0, nowMs - Date.parse(first.call_received_at)) } : null,
    pastTarget,
    pastTargetTotal: PRIORITIES.reduce((n, p) => n + pastTarget[p], 0),
  };
}

/** The Waiting Calls tile's caption: "Oldest P1, waiting 6 min" (the call a free ambulance should take), or "None waiting". */
export const waitingCaption = (s: Pick<CallStats, 'firstWaiting'>) =>
  s.firstWaiting ? `Oldest ${priorityTag(s.firstWaiting.priority)}, waiting ${waitWords(s.firstWaiting.waitedMs)}` : 'None waiting';

/** The Past Target tile's caption, each priority that has one: "P1: 2 · P3: 1", or "No open call past its target". */
export function pastTargetCaption(s: Pick<CallStats, 'pastTarget'>): string {
  const parts = PRIORITIES.filter((p) => s.pastTarget[p] > 0).map((p) => `${priorityTag(p)}: ${s.pastTarget[p]}`);
  return parts.length ? parts.join(' · ') : 'No open call past its target';
}
