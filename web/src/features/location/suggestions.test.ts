import { describe, expect, it } from 'vitest';
import type { AmbulanceDto, DispatchSuggestion } from '../../api/contract';
import { etaText, formAmbulance, rankBySuggestions, suggestionLabel, topSuggestion } from './suggestions';

const amb = (id: number, status = 'available') => ({ id, license_plate: `TS09 EA 100${id}`, status }) as AmbulanceDto;
const sug = (id: number, extra: Partial<DispatchSuggestion> = {}): DispatchSuggestion =>
  ({ ambulance_id: id, license_plate: `TS09 EA 100${id}`, distance_m: 1200, eta_s: 230, position_age_s: 5, stale: false, capability: 'als', can_transport: true, meets_need: true, ...extra });

describe('suggested ambulances', () => {
  it('names each with its distance and ETA, and says when its position is old', () => {
    expect(suggestionLabel(sug(3))).toBe('TS09 EA 1003 — 1.2 km, ~4 min');
    expect(suggestionLabel(sug(3, { distance_m: 850, eta_s: 20 }))).toBe('TS09 EA 1003 — 850 m, ~1 min');
    expect(suggestionLabel(sug(3, { stale: true, position_age_s: 900 }))).toBe('TS09 EA 1003 — 1.2 km, ~4 min, position old');
    expect(etaText(0)).toBe('~1 min');
    expect(etaText(90)).toBe('~2 min');
  });

  it('lists the free ones in the server\'s order, drops one taken meanwhile, and keeps unranked free ones last', () => {
    const available = [amb(1), amb(2), amb(4)];
    const ranked = rankBySuggestions(available, [sug(4), sug(3), sug(1)]);
    expect(ranked.map((r) => [r.ambulance.id, r.suggestion?.ambulance_id ?? null])).toEqual([[4, 4], [1, 1], [2, null]]);
    expect(topSuggestion(ranked)?.ambulance.id).toBe(4);
    expect(topSuggestion(rankBySuggestions(available, []))).toBeNull();
  });

  it('preselects the quickest until the operator picks by hand, and never swaps a taken pick for another', () => {
    const available = [amb(1), amb(2), amb(4)];
    const ranked = rankBySuggestions(available, [sug(4), sug(1)]);
    expect(formAmbulance('', ranked, available)).toBe('4');
    expect(formAmbulance('2', ranked, available)).toBe('2');
    // Picked by hand, then taken elsewhere: empty, the operator decides again.
    expect(formAmbulance('7', ranked, available)).toBe('');
    // No location (no ranking): as before, nothing preselected.
    expect(formAmbulance('', [], available)).toBe('');
    // The top suggestion taken meanwhile: the next one.
    expect(formAmbulance('', rankBySuggestions([amb(1), amb(2)], [sug(4), sug(1)]), [amb(1), amb(2)])).toBe('1');
  });
});
