import { describe, expect, it } from 'vitest';
import { type GroupReport, type IntervalFigures, INTERVALS } from '../../../api/contract';
import { localDate } from '../../../api/contract';
import { callsText, durationText, measuredLine, openPastTargetText, priorityLine, shareText, verdictOf, VERDICT_TEXT } from './todayText';

const none: IntervalFigures = { n: 0, mean_s: null, p50_s: null, p90_s: null, missing: 0 };
const intervals = (response: Partial<IntervalFigures>) =>
  ({ ...Object.fromEntries(INTERVALS.map((k) => [k, none])), response: { ...none, ...response } }) as GroupReport['intervals'];

describe('the live figures in words', () => {
  it('writes durations as m:ss below an hour and h:mm:ss above, a dash for none', () => {
    expect(durationText(580)).toBe('9:40');
    expect(durationText(5)).toBe('0:05');
    expect(durationText(900)).toBe('15:00');
    expect(durationText(3600)).toBe('1:00:00');
    expect(durationText(3729.9)).toBe('1:02:09');
    expect(durationText(null)).toBe('—');
  });

  it('judges a 90th percentile against its target, the target itself counting as within', () => {
    expect(verdictOf(899, 900)).toBe('within');
    expect(verdictOf(900, 900)).toBe('within');
    expect(verdictOf(901, 900)).toBe('over');
    expect(verdictOf(null, 900)).toBeNull();
    expect(VERDICT_TEXT.within).toBe('Within target');
    expect(VERDICT_TEXT.over).toBe('Over target');
  });

  it('writes a priority row, with or without an arrival', () => {
    expect(priorityLine({ priority: 1, calls: 3, target_s: 900, intervals: intervals({ n: 3, p90_s: 580 }) })).toBe('P1 · 3 calls · 90th percentile 9:40 · target 15:00');
    expect(priorityLine({ priority: 3, calls: 1, target_s: 7200, intervals: intervals({}) })).toBe('P3 · 1 call · no arrival yet · target 2:00:00');
    expect(callsText(0)).toBe('0 calls');
  });

  it('writes the measured line, never rounding a share up to a claim it did not make', () => {
    const overall = { calls: 40, intervals: intervals({ n: 38, mean_s: 492, p90_s: 845 }), response_within_target: { n: 33, share: 33 / 38 } };
    expect(measuredLine(overall)).toBe('Measured here, last 30 days: mean response 8:12 · 90th percentile 14:05 · 86 % of calls within target');
    expect(shareText(0.29)).toBe('29 %');
    expect(shareText(0.999)).toBe('99 %');
    expect(measuredLine({ calls: 0, intervals: intervals({}), response_within_target: { n: 0, share: null } })).toBe('Measured here, last 30 days: no calls yet');
    expect(measuredLine({ calls: 2, intervals: intervals({ missing: 2 }), response_within_target: { n: 0, share: null } }))
      .toBe('Measured here, last 30 days: 2 calls, none reached on scene yet');
  });

  it('counts today in the given zone', () => {
    const at = Date.parse('2026-11-24T20:00:00Z');
    expect(localDate(at, 'UTC')).toBe('2026-11-24');
    expect(localDate(at, 'Asia/Kolkata')).toBe('2026-11-25');
    expect(localDate(at, 'America/New_York')).toBe('2026-11-24');
  });
});

describe('open calls past target under a priority\'s row (issue 25)', () => {
  it('counts them, so "Within target" of the arrivals never hides a call nobody has reached', () => {
    expect(openPastTargetText(1)).toBe('1 open call past target now');
    expect(openPastTargetText(3)).toBe('3 open calls past target now');
  });
});
