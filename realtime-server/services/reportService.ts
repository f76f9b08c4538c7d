import type { DemandReport, HandoverReport, ReportPeriod, ResponseTimesReport, UtilisationReport } from '../contract';
import { type CommitmentRow, type FleetRow, reportRepository } from '../../db/repositories/reportRepository';
import type { ServiceContext } from './context';
import { HandoverTally } from './handoverReport';
import { isoMs, zoneClock } from './reportTime';
import { ResponseTimesTally, share } from './responseTimes';

/**
 * The report figures (docs/user-guide.md "Reports: how the figures are made"): pure functions over a
 * period's calls and assignments, and the service functions that read them.
 */

/** Calls by local hour of week: counts[weekday, Monday 0][hour 0–23]. */
export function demandTally(period: ReportPeriod) {
  const counts = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  const clock = zoneClock(period.tz);
  return {
    add: (callReceivedAt: string) => {
      const { weekday, hour } = clock.slot(isoMs(callReceivedAt));
      counts[weekday][hour]++;
    },
    report: (): DemandReport => ({ from: period.from, to: period.to, tz: period.tz, counts }),
  };
}

export function buildDemand(callTimes: Iterable<string>, period: ReportPeriod): DemandReport {
  const tally = demandTally(period);
  for (const t of callTimes) tally.add(t);
  return tally.report();
}

/**
 * Unit hour utilisation: per ambulance, the time its assignments held it (dispatch to cleared or
 * cancelled, or now while open) within the period, over its time on shift in the period. Each
 * assignment is its own unit's time: a call with several units commits each of them from its own
 * dispatch to its own clear or stand-down, never the call's span, and nothing is per case. There
 * is no shift roster: an ambulance is on shift around the clock from when it was added until now.
 * A deleted ambulance's assignments keep its plate and are grouped by it; since when it existed
 * is not kept, it counts on shift from the period's start to the end of its last assignment in it.
 */
export function utilisationTally(fleet: readonly FleetRow[], period: Pick<ReportPeriod, 'from' | 'to'>, nowMs: number) {
  const from = isoMs(period.from);
  const until = Math.min(isoMs(period.to), nowMs);
  const clip = (start: number, end: number) => Math.max(0, Math.min(end, until) - Math.max(start, from));

  const units = new Map<string, Unit>();
  for (const a of fleet) units.set(`id:${a.id}`, { ambulance_id: a.id, license_plate: a.license_plate, committedMs: 0, onShiftMs: clip(isoMs(a.created_at), nowMs) });
  const add = (c: CommitmentRow) => {
    const known = c.ambulance_id != null && units.has(`id:${c.ambulance_id}`);
    const key = known ? `id:${c.ambulance_id}` : `plate:${c.license_plate}`;
    let u = units.get(key);
    if (!u) units.set(key, (u = { ambulance_id: null, license_plate: c.license_plate, committedMs: 0, onShiftMs: 0, lastEnd: from }));
    const end = c.ended_at == null ? nowMs : isoMs(c.ended_at);
    u.committedMs += clip(isoMs(c.dispatched_at), end);
    if (u.lastEnd !== undefined) u.lastEnd = Math.max(u.lastEnd, Math.min(end, until));
  };
  return { add, report: (): UtilisationReport => utilisationReport([...units.values()], period, from) };
}

type Unit = { ambulance_id: number | null; license_plate: string; committedMs: number; onShiftMs: number; lastEnd?: number };

/** A deleted ambulance's time on shift ends with its last assignment in the period (see utilisationTally). */
function utilisationReport(units: Unit[], period: Pick<ReportPeriod, 'from' | 'to'>, from: number): UtilisationReport {
  const seconds = (ms: number) => Math.round(ms / 1000);
  const listed = units
    .map((u) => (u.lastEnd === undefined ? u : { ...u, onShiftMs: Math.max(0, u.lastEnd - from) }))
    .filter((u) => u.onShiftMs > 0 || u.committedMs > 0)
    .sort((a, b) => (a.license_plate < b.license_plate ? -1 : a.license_plate > b.license_plate ? 1 : (a.ambulance_id ?? Infinity) - (b.ambulance_id ?? Infinity)));
  const committedMs = listed.reduce((s, u) => s + u.committedMs, 0);
  const onShiftMs = listed.reduce((s, u) => s + u.onShiftMs, 0);
  return {
    from: period.from, to: period.to,
    overall: { committed_s: seconds(committedMs), on_shift_s: seconds(onShiftMs), share: share(committedMs, onShiftMs) },
    ambulances: listed.map((u) => ({
      ambulance_id: u.ambulance_id, license_plate: u.license_plate,
      committed_s: seconds(u.committedMs), on_shift_s: seconds(u.onShiftMs), share: share(u.committedMs, u.onShiftMs),
    })),
  };
}

export function buildUtilisation(
  commitments: Iterable<CommitmentRow>, fleet: readonly FleetRow[], period: Pick<ReportPeriod, 'from' | 'to'>, nowMs: number,
): UtilisationReport {
  const tally = utilisationTally(fleet, period, nowMs);
  for (const c of commitments) tally.add(c);
  return tally.report();
}

/** Each report stops reading once `signal` aborts (its client left) and throws the signal's reason. */
export const reportService = {
  async responseTimes(svc: ServiceContext, period: ReportPeriod, signal?: AbortSignal): Promise<ResponseTimesReport> {
    const tally = new ResponseTimesTally(period, svc.config.priorities, svc.config.clockStops);
    await reportRepository.eachCallRow(svc.db, period.from, period.to, (row) => tally.addRow(row), signal);
    return tally.report();
  },
  async demand(svc: ServiceContext, period: ReportPeriod, signal?: AbortSignal): Promise<DemandReport> {
    const tally = demandTally(period);
    await reportRepository.eachCallTime(svc.db, period.from, period.to, tally.add, signal);
    return tally.report();
  },
  async utilisation(svc: ServiceContext, period: ReportPeriod, signal?: AbortSignal, nowMs = Date.now()): Promise<UtilisationReport> {
    const tally = utilisationTally(await reportRepository.fleetBefore(svc.db, period.to), period, nowMs);
    await reportRepository.eachCommitment(svc.db, period.from, period.to, tally.add, signal);
    return tally.report();
  },
  /** Hospital handover against HANDOVER_TARGETS: the period's arrivals, then its pre-alerts (handoverReport.ts). */
  async handover(svc: ServiceContext, period: ReportPeriod, signal?: AbortSignal): Promise<HandoverReport> {
    const tally = new HandoverTally(period, svc.config.handoverTargets);
    await reportRepository.eachHandoverArrival(svc.db, period.from, period.to, tally.addArrival, signal);
    await reportRepository.eachHandoverPrealert(svc.db, period.from, period.to, tally.addPrealert, signal);
    return tally.report();
  },
};
