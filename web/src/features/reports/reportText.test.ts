import { describe, expect, it } from 'vitest';
import type { IntervalFigures, PriorityReport } from '../../api/contract';
import { INTERVALS } from '../../api/contract';
import { clockOr, clockStopText, heatFill, minutesOf, tileText, verdictOf } from './reportText';

const none: IntervalFigures = { n: 0, mean_s: null, p50_s: null, p90_s: null, missing: 0 };
function priority(p90: number | null, share: number | null, calls = 42): PriorityReport {
  const intervals = Object.fromEntries(INTERVALS.map((k) => [k, none])) as PriorityReport['intervals'];
  intervals.response = { n: calls, mean_s: 600, p50_s: 540, p90_s: p90, missing: 0 };
  return { priority: 1, target_s: 900, clock_stop: 'first', calls, intervals, response_within_target: { n: calls, share } };
}

describe('report texts', () => {
  it('says a priority tile in words: calls, the 90th percentile against its target, the share within it', () => {
    expect(tileText(priority(800, 0.905), 'Life-threatening'))
      .toBe('P1 Life-threatening · 42 calls · 90th percentile 13:20 (target 15:00) · 91 % within target');
    expect(tileText(priority(null, null, 1), 'Life-threatening')).toBe('P1 Life-threatening · 1 call · no response times yet (target 15:00)');
  });

  it('judges the 90th percentile against the target, unknown without figures', () => {
    expect(verdictOf(priority(900, 1))).toBe('met');
    expect(verdictOf(priority(901, 0.8))).toBe('missed');
    expect(verdictOf(priority(null, null))).toBe('unknown');
  });

  it('names where a priority\'s response clock stops, as the intervals are labelled', () => {
    expect(clockStopText('first')).toBe('First on scene');
    expect(clockStopText('transport')).toBe('Able to convey on scene (first on scene when nobody conveyed)');
  });

  it('never turns a missing figure into zero', () => {
    expect(clockOr(null)).toBe('–');
    expect(minutesOf(null)).toBeNull();
    expect(minutesOf(800)).toBe(13.3);
  });

  it('keeps heat cells out of the middle band where no text colour is readable', () => {
    expect(heatFill(0)).toEqual({ opacity: 0.05, strong: false });
    expect(heatFill(0.49).opacity).toBeLessThanOrEqual(0.4);
    expect(heatFill(0.5)).toEqual({ opacity: 0.72, strong: true });
    expect(heatFill(1)).toEqual({ opacity: 1, strong: true });
  });
});
