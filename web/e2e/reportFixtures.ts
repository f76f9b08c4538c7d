import type { DemandReport, HandoverFigures, HandoverReport, IntervalFigures, PriorityReport, ResponseTimesReport, UtilisationReport } from '../src/api/contract';
import { INTERVALS } from '../src/api/contract';

// A hand-made report whose figures the screen must show exactly (the server's arithmetic is
// tested on the server; here only what the screen makes of it).

const figures = (n: number, p50: number, mean: number, p90: number, missing = 0): IntervalFigures => ({ n, mean_s: mean, p50_s: p50, p90_s: p90, missing });

function priority(p: 1 | 2 | 3 | 4, calls: number, target: number, response: IntervalFigures, within: number | null): PriorityReport {
  const intervals = Object.fromEntries(INTERVALS.map((k) => [k, figures(response.n, 60, 70, 120)])) as PriorityReport['intervals'];
  intervals.response = response;
  return { priority: p, target_s: target, clock_stop: p === 1 ? 'first' : 'transport', calls, intervals, response_within_target: { n: response.n, share: within } };
}

export const FIXTURE_PRIORITIES = [
  priority(1, 42, 900, figures(40, 540, 600, 800, 2), 0.905),
  priority(2, 30, 2400, figures(30, 1500, 1700, 2700), 0.8),
  priority(3, 12, 7200, figures(12, 3000, 3300, 5000), 1),
  priority(4, 1, 10800, figures(0, 0, 0, 0, 1), null),
];
FIXTURE_PRIORITIES[3].intervals.response = { n: 0, mean_s: null, p50_s: null, p90_s: null, missing: 1 };

export function responseTimesFixture(from: string, to: string, tz: string): ResponseTimesReport {
  const days = ['2026-11-24', '2026-11-25', '2026-11-26'];
  return {
    from, to, tz,
    overall: { calls: 85, intervals: FIXTURE_PRIORITIES[0].intervals, response_within_target: { n: 82, share: 0.87 } },
    priorities: FIXTURE_PRIORITIES,
    daily: days.flatMap((date, i) => [
      { date, priority: 1 as const, calls: 14, p90_s: 780 + 30 * i },
      { date, priority: 2 as const, calls: 10, p90_s: i === 1 ? null : 2500 + 100 * i },
      { date, priority: 3 as const, calls: 4, p90_s: 4800 },
    ]),
  };
}

export function demandFixture(from: string, to: string, tz: string): DemandReport {
  // Busiest on Friday (index 4) at 18:00: 9 calls; a quiet night; every other hour 1–5.
  const counts = Array.from({ length: 7 }, (_, d) => Array.from({ length: 24 }, (_, h) => (h < 6 ? 0 : 1 + ((d + h) % 5))));
  counts[4][18] = 9;
  return { from, to, tz, counts };
}

export function utilisationFixture(from: string, to: string): UtilisationReport {
  return {
    from, to,
    overall: { committed_s: 36_000, on_shift_s: 144_000, share: 0.25 },
    ambulances: [
      { ambulance_id: 1, license_plate: 'TS09 EA 1001', committed_s: 21_600, on_shift_s: 72_000, share: 0.3 },
      { ambulance_id: 2, license_plate: 'TS09 EA 1002', committed_s: 14_400, on_shift_s: 72_000, share: 0.2 },
      { ambulance_id: 3, license_plate: 'TS09 EA 1003', committed_s: 0, on_shift_s: 0, share: null },
    ],
  };
}

const noFigures = (missing: number): IntervalFigures => ({ n: 0, mean_s: null, p50_s: null, p90_s: null, missing });

/**
 * Hospital handover (issue 30): two hospitals and arrivals with no destination, the figures of the
 * server's hand-made day (realtime-server/testing/reportFixture.ts HANDOVER_ARRIVALS) with a third
 * hospital that only had a pre-alert. `empty`: a period without arrivals or pre-alerts.
 */
export function handoverFixture(from: string, to: string, tz: string, empty = false): HandoverReport {
  const nothing: HandoverFigures = {
    arrivals: 0, handover: noFigures(0), within_first_target: { n: 0, share: null }, within_second_target: { n: 0, share: null },
    over_last_target: 0, hours_lost: 0, prealerts_sent: 0, prealerts_acknowledged: 0, time_to_acknowledge: noFigures(0),
  };
  if (empty) return { from, to, tz, targets_min: [15, 30, 45, 60], overall: nothing, hospitals: [] };
  return {
    from, to, tz, targets_min: [15, 30, 45, 60],
    overall: {
      arrivals: 6, handover: { n: 4, mean_s: 2100, p50_s: 1200, p90_s: 4200, missing: 2 },
      within_first_target: { n: 1, share: 0.25 }, within_second_target: { n: 2, share: 0.5 }, over_last_target: 1, hours_lost: 1.42,
      prealerts_sent: 5, prealerts_acknowledged: 3, time_to_acknowledge: { n: 3, mean_s: 110, p50_s: 60, p90_s: 240, missing: 2 },
    },
    hospitals: [
      {
        hospital_id: 1, name: 'City General', arrivals: 3, handover: { n: 2, mean_s: 1500, p50_s: 600, p90_s: 2400, missing: 1 },
        within_first_target: { n: 1, share: 0.5 }, within_second_target: { n: 1, share: 0.5 }, over_last_target: 0, hours_lost: 0.42,
        prealerts_sent: 3, prealerts_acknowledged: 2, time_to_acknowledge: { n: 2, mean_s: 150, p50_s: 60, p90_s: 240, missing: 1 },
      },
      { ...nothing, hospital_id: 3, name: 'Lakeside Children\'s', prealerts_sent: 1, time_to_acknowledge: noFigures(1) },
      {
        hospital_id: 2, name: 'Royal Infirmary', arrivals: 2, handover: { n: 2, mean_s: 2700, p50_s: 1200, p90_s: 4200, missing: 0 },
        within_first_target: { n: 0, share: 0 }, within_second_target: { n: 1, share: 0.5 }, over_last_target: 1, hours_lost: 1,
        prealerts_sent: 1, prealerts_acknowledged: 1, time_to_acknowledge: { n: 1, mean_s: 30, p50_s: 30, p90_s: 30, missing: 0 },
      },
      { ...nothing, hospital_id: null, name: null, arrivals: 1, handover: noFigures(1) },
    ],
  };
}
