import { describe, expect, it } from 'vitest';
import type { HandoverArrivalRow, HandoverPrealertRow } from '../../db/repositories/reportRepository';
import { buildHandover } from './handoverReport';

/**
 * The handover report's arithmetic without a database (docs/user-guide.md "The handover report"):
 * handover times from arrival (eTimes.11) to handover (eTimes.12) against HANDOVER_TARGETS, hours lost
 * beyond the first, and the time hospitals take to acknowledge pre-alerts.
 */
const PERIOD = { from: '2026-10-11T18:30:00.000Z', to: '2026-10-12T18:30:00.000Z', tz: 'Asia/Kolkata' };
const TARGETS = [15, 30, 45, 60];
const T0 = Date.parse('2026-10-12T04:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
/** An arrival at T0 + `at` minutes with its handover `handoverS` seconds later (null: none). */
const arrival = (id: number | null, name: string | null, handoverS: number | null, at = 0): HandoverArrivalRow =>
  [id, name, iso(T0 + at * 60_000), handoverS == null ? null : iso(T0 + at * 60_000 + handoverS * 1000)];
const prealert = (id: number | null, name: string | null, ackS: number | null): HandoverPrealertRow =>
  [id, name, iso(T0), ackS == null ? null : iso(T0 + ackS * 1000)];

describe('the handover report', () => {
  it('figures handovers of 10, 20, 40 and 70 minutes: percentiles, shares within 15 and 30, over 60, hours lost beyond 15', () => {
    const r = buildHandover([
      arrival(1, 'City General', 600), arrival(1, 'City General', 2400), arrival(1, 'City General', null),
      arrival(2, 'Royal Infirmary', 1200), arrival(2, 'Royal Infirmary', 4200),
    ], [prealert(1, 'City General', 60), prealert(1, 'City General', 240), prealert(1, 'City General', null), prealert(2, 'Royal Infirmary', 30)], PERIOD, TARGETS);
    expect(r.targets_min).toEqual(TARGETS);
    expect(r.overall).toEqual({
      arrivals: 5,
      handover: { n: 4, mean_s: 2100, p50_s: 1200, p90_s: 4200, missing: 1 },
      within_first_target: { n: 1, share: 0.25 },
      within_second_target: { n: 2, share: 0.5 },
      over_last_target: 1,
      // (40 − 15) + (20 − 15) + (70 − 15) = 85 minutes.
      hours_lost: 1.42,
      prealerts_sent: 4,
      prealerts_acknowledged: 3,
      time_to_acknowledge: { n: 3, mean_s: 110, p50_s: 60, p90_s: 240, missing: 1 },
    });
    expect(r.hospitals.map((h) => [h.name, h.arrivals, h.handover.p50_s, h.handover.p90_s, h.hours_lost, h.over_last_target])).toEqual([
      ['City General', 3, 600, 2400, 0.42, 0],
      ['Royal Infirmary', 2, 1200, 4200, 1, 1],
    ]);
  });

  it('counts a handover at exactly a target as within it, and over the last only past it', () => {
    const r = buildHandover([arrival(1, 'A', 900), arrival(1, 'A', 1800), arrival(1, 'A', 3600), arrival(1, 'A', 3600.001)], [], PERIOD, TARGETS);
    expect(r.overall.within_first_target).toEqual({ n: 1, share: 0.25 });
    expect(r.overall.within_second_target).toEqual({ n: 2, share: 0.5 });
    expect(r.overall.over_last_target).toBe(1);
    // 0 + 15 + 45 + 45.0000167 minutes.
    expect(r.overall.hours_lost).toBe(1.75);
  });

  it('leaves a handover before its arrival out as broken data, and a pre-alert acknowledged before it was sent out of the times', () => {
    const broken: HandoverArrivalRow = [1, 'A', iso(T0), iso(T0 - 1000)];
    const early: HandoverPrealertRow = [1, 'A', iso(T0), iso(T0 - 1000)];
    const r = buildHandover([broken, arrival(1, 'A', 300)], [early], PERIOD, TARGETS);
    expect(r.overall.handover).toEqual({ n: 1, mean_s: 300, p50_s: 300, p90_s: 300, missing: 1 });
    expect(r.overall.prealerts_acknowledged).toBe(1);
    expect(r.overall.time_to_acknowledge).toEqual({ n: 0, mean_s: null, p50_s: null, p90_s: null, missing: 1 });
  });

  it('groups by the destination as kept: a deleted hospital by its name, a renamed one apart, no destination last', () => {
    const r = buildHandover([
      arrival(null, 'Zeta Cottage', 600), arrival(null, null, null), arrival(3, 'Alpha', 600), arrival(3, 'Alpha (new wing)', 600), arrival(3, 'Alpha', 1200),
    ], [prealert(null, 'Zeta Cottage', 10), prealert(4, 'Beta', null)], PERIOD, TARGETS);
    expect(r.hospitals.map((h) => [h.hospital_id, h.name, h.arrivals, h.prealerts_sent])).toEqual([
      [3, 'Alpha', 2, 0], [3, 'Alpha (new wing)', 1, 0], [4, 'Beta', 0, 1], [null, 'Zeta Cottage', 1, 1], [null, null, 1, 0],
    ]);
    // A hospital with pre-alerts and no arrivals: shares unknown, never zero.
    expect(r.hospitals[2]).toMatchObject({ handover: { n: 0, p50_s: null, missing: 0 }, within_first_target: { n: 0, share: null }, hours_lost: 0 });
  });

  it('answers a period with nothing with empty figures', () => {
    const r = buildHandover([], [], PERIOD, TARGETS);
    expect(r).toEqual({
      ...PERIOD, targets_min: TARGETS, hospitals: [],
      overall: {
        arrivals: 0, handover: { n: 0, mean_s: null, p50_s: null, p90_s: null, missing: 0 },
        within_first_target: { n: 0, share: null }, within_second_target: { n: 0, share: null }, over_last_target: 0, hours_lost: 0,
        prealerts_sent: 0, prealerts_acknowledged: 0, time_to_acknowledge: { n: 0, mean_s: null, p50_s: null, p90_s: null, missing: 0 },
      },
    });
  });
});
