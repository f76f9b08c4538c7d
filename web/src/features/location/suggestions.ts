import { arrivalMinutes, formatDistance, type AmbulanceDto, type DispatchSuggestion } from '../../api/contract';

/** "~4 min": the server's estimate in whole minutes, as every screen words it (contract arrivalMinutes: rounded up, at least 1). */
export const etaText = (etaS: number) => `~${arrivalMinutes(etaS)} min`;

/** "1.2 km, ~4 min", and ", position old" when the unit's last fix is stale (it may have moved). */
export const suggestionDetail = (s: Pick<DispatchSuggestion, 'distance_m' | 'eta_s' | 'stale'>) =>
  `${formatDistance(s.distance_m)}, ${etaText(s.eta_s)}${s.stale ? ', position old' : ''}`;

/** "TS09 EA 1003 — 1.2 km, ~4 min": how the select and the chips name a suggested ambulance. */
export const suggestionLabel = (s: DispatchSuggestion) => `${s.license_plate} — ${suggestionDetail(s)}`;

export interface RankedChoice {
  ambulance: AmbulanceDto;
  /** The server's estimate for it; null for a free one it could not rank (no position). */
  suggestion: DispatchSuggestion | null;
}

/**
 * The free ambulances in the server's order of arrival, each with its estimate; free ones the
 * server did not rank follow in the order given. A suggestion for an ambulance no longer free
 * (taken since it was fetched) is dropped: the live list decides who can go.
 */
export function rankBySuggestions(available: readonly AmbulanceDto[], suggestions: readonly DispatchSuggestion[]): RankedChoice[] {
  const byId = new Map(available.map((a) => [a.id, a]));
  const ranked: RankedChoice[] = [];
  for (const s of suggestions) {
    const ambulance = byId.get(s.ambulance_id);
    if (ambulance) { ranked.push({ ambulance, suggestion: s }); byId.delete(s.ambulance_id); }
  }
  return [...ranked, ...available.filter((a) => byId.has(a.id)).map((ambulance) => ({ ambulance, suggestion: null }))];
}

/** The first ranked suggestion that is still free, or null. */
export const topSuggestion = (ranked: readonly RankedChoice[]): RankedChoice | null => ranked.find((r) => r.suggestion != null) ?? null;

/**
 * The ambulance the form holds, as the priority follows the type: the operator's own pick once
 * made (while that ambulance is free; a pick taken meanwhile leaves the choice empty rather than
 * silently swapping in another), else the quickest suggested one, else none.
 */
export function formAmbulance(picked: string, ranked: readonly RankedChoice[], available: readonly AmbulanceDto[]): string {
  if (picked !== '') return available.some((a) => String(a.id) === picked) ? picked : '';
  const top = topSuggestion(ranked);
  return top ? String(top.ambulance.id) : '';
}
