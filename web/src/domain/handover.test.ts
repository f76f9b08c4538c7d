import { describe, expect, it } from 'vitest';
import { handoverBand, handoverBandText, releaseToRespondText } from '../api/contract';
import { destinationText, handoverClock, handoverTargets } from './handover';

const T = Date.parse('2026-12-07T10:00:00Z');
const at = (min: number) => new Date(T + min * 60_000).toISOString();
const NHS = [15, 30, 45, 60];

describe('the handover clock against 15/30/45/60 minutes', () => {
  it.each([
    [0, 0, 'Within 15 min'], [14.9, 0, 'Within 15 min'], [15, 1, 'Past 15 min'], [30, 2, 'Past 30 min'],
    [45, 3, 'Past 45 min: release to respond'], [61, 4, 'Past 60 min'],
  ])('%s min is band %s, "%s"', (min, band, words) => {
    expect(handoverBand(min * 60, NHS)).toBe(band);
    expect(handoverBandText(handoverBand(min * 60, NHS), NHS)).toBe(words);
  });

  it('runs from arrival while the unit waits, and stops at the handover', () => {
    const waiting = handoverClock({ status: 'at_hospital', at_hospital_at: at(0), handover_at: null }, T + 16 * 60_000 + 2_000, NHS);
    expect(waiting).toEqual({ elapsedS: 962, done: false, band: 1, words: 'Past 15 min', clock: '16:02' });
    const done = handoverClock({ status: 'cleared', at_hospital_at: at(0), handover_at: at(12) }, T + 90 * 60_000, NHS);
    expect(done).toMatchObject({ elapsedS: 720, done: true, band: 0, clock: '12:00' });
  });

  it('has no clock before arrival, or for a unit that cleared without a recorded handover', () => {
    expect(handoverClock({ status: 'transporting', at_hospital_at: null, handover_at: null }, T, NHS)).toBeNull();
    expect(handoverClock({ status: 'cleared', at_hospital_at: at(0), handover_at: null }, T + 3_600_000, NHS)).toBeNull();
  });

  it('takes the configured targets, else the NHS ones', () => {
    expect(handoverTargets({ handover_targets: [10, 20, 30, 40] })).toEqual([10, 20, 30, 40]);
    expect(handoverTargets(undefined)).toEqual(NHS);
    expect(handoverBandText(handoverBand(25 * 60, [10, 20, 30, 40]), [10, 20, 30, 40])).toBe('Past 20 min');
  });

  it('words the destination and the release prompt', () => {
    expect(destinationText({ hospital_id: 1, name: 'Royal General', reason: 'specialty', set_at: at(0) })).toBe('Royal General (Specialty centre)');
    expect(releaseToRespondText('TS09 EA 1001', 'Royal General', 45)).toBe('Release to respond: TS09 EA 1001 at Royal General 45 min');
  });
});
