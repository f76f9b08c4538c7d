import { describe, expect, it } from 'vitest';
import type { HandoverFigures, HandoverReport } from '../../api/contract';
import { PREALERT_COLUMNS, handoverBars, handoverColumns, handoverRows, handoverSummary, hoursLostText, prealertRows, withinText } from './handoverText';

const none = (missing: number) => ({ n: 0, mean_s: null, p50_s: null, p90_s: null, missing });
const empty: HandoverFigures = {
  arrivals: 0, handover: none(0), within_first_target: { n: 0, share: null }, within_second_target: { n: 0, share: null },
  over_last_target: 0, hours_lost: 0, prealerts_sent: 0, prealerts_acknowledged: 0, time_to_acknowledge: none(0),
};

/** The server's figures for the hand-made day of realtime-server/testing/reportFixture.ts (HANDOVER_ARRIVALS). */
const REPORT: HandoverReport = {
  from: '2026-10-11T18:30:00.000Z', to: '2026-10-12T18:30:00.000Z', tz: 'Asia/Kolkata', targets_min: [15, 30, 45, 60],
  overall: {
    arrivals: 6, handover: { n: 4, mean_s: 2100, p50_s: 1200, p90_s: 4200, missing: 2 },
    within_first_target: { n: 1, share: 0.25 }, within_second_target: { n: 2, share: 0.5 }, over_last_target: 1, hours_lost: 1.42,
    prealerts_sent: 4, prealerts_acknowledged: 3, time_to_acknowledge: { n: 3, mean_s: 110, p50_s: 60, p90_s: 240, missing: 1 },
  },
  hospitals: [
    {
      hospital_id: 1, name: 'City General', arrivals: 3, handover: { n: 2, mean_s: 1500, p50_s: 600, p90_s: 2400, missing: 1 },
      within_first_target: { n: 1, share: 0.5 }, within_second_target: { n: 1, share: 0.5 }, over_last_target: 0, hours_lost: 0.42,
      prealerts_sent: 3, prealerts_acknowledged: 2, time_to_acknowledge: { n: 2, mean_s: 150, p50_s: 60, p90_s: 240, missing: 1 },
    },
    { ...empty, hospital_id: 3, name: 'Pre-alert Only', prealerts_sent: 1, time_to_acknowledge: none(1) },
    { ...empty, hospital_id: null, name: null, arrivals: 1, handover: none(1) },
  ],
};

describe('the handover section in words', () => {
  it('names the handover columns after the targets in force', () => {
    expect(handoverColumns([15, 30, 45, 60])).toEqual([
      'Hospital', 'Arrivals', 'Handed over', 'Median handover', '90th percentile', 'Within 15 min', 'Within 30 min', 'Over 60 min', 'Hours lost beyond 15 min',
    ]);
    expect(handoverColumns([10, 20, 40, 50]).slice(5)).toEqual(['Within 10 min', 'Within 20 min', 'Over 50 min', 'Hours lost beyond 10 min']);
  });

  it('writes a handover row per destination with arrivals, no destination in words, then all hospitals; a missing figure is a dash, never zero', () => {
    expect(handoverRows(REPORT).map((r) => r.cells)).toEqual([
      ['City General', '3', '2', '10:00', '40:00', '50 % (1)', '50 % (1)', '0', '0.4 h'],
      ['No destination recorded', '1', '0', '–', '–', '–', '–', '0', '0.0 h'],
      ['All hospitals', '6', '4', '20:00', '1:10:00', '25 % (1)', '50 % (2)', '1', '1.4 h'],
    ]);
    expect(new Set(handoverRows(REPORT).map((r) => r.key)).size).toBe(3);
  });

  it('writes a pre-alert row per hospital they were sent to, the share acknowledged, then all hospitals', () => {
    expect(PREALERT_COLUMNS).toEqual(['Hospital', 'Pre-alerts sent', 'Acknowledged', 'Time to acknowledge: median', 'Time to acknowledge: 90th percentile']);
    expect(prealertRows(REPORT).map((r) => r.cells)).toEqual([
      ['City General', '3', '2 (67 %)', '1:00', '4:00'],
      ['Pre-alert Only', '1', '0 (0 %)', '–', '–'],
      ['All hospitals', '4', '3 (75 %)', '1:00', '4:00'],
    ]);
    const quiet = { ...REPORT, hospitals: [], overall: empty };
    expect(prealertRows(quiet).map((r) => r.cells)).toEqual([['All hospitals', '0', '0 (–)', '–', '–']]);
  });

  it('draws the destinations that had arrivals, in minutes, none handed over as no bar', () => {
    expect(handoverBars(REPORT)).toEqual([
      { label: 'City General', p50: 10, p90: 40 },
      { label: 'No destination recorded', p50: null, p90: null },
    ]);
  });

  it('sums the period up in one sentence', () => {
    expect(handoverSummary(REPORT)).toBe('6 arrivals at hospital, 4 handed over; 90th percentile 1:10:00; 25 % within 15 min; 1 over 60 min; 1.4 hours lost beyond 15 min.');
    expect(handoverSummary({ ...REPORT, overall: { ...empty, arrivals: 1, handover: none(1) } })).toBe('1 arrival at hospital, 0 handed over.');
  });

  it('formats hours lost and shares', () => {
    expect(hoursLostText(1.42)).toBe('1.4 h');
    expect(withinText({ n: 0, share: null })).toBe('–');
    expect(withinText({ n: 0, share: 0 })).toBe('0 % (0)');
  });
});
