import { ApiError } from '../../api/client';
import { ADDRESS_SEARCH_UNAVAILABLE, type GeocodeSearchResult, type IntakeLocationDto, type IntakeSource } from '../../api/contract';

/** "17.41260, 78.44820": how a bare point is written (5 decimals, about a metre). */
export const pointText = (latitude: number, longitude: number) => `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;

/** A pin dropped on the map: its own coordinates are its place text. */
export const pinLocation = (latitude: number, longitude: number): IntakeLocationDto =>
  ({ latitude, longitude, address: pointText(latitude, longitude), source: 'pin' });

/** A search result taken as the call's location. */
export const fromSearchResult = (r: GeocodeSearchResult): IntakeLocationDto =>
  ({ latitude: r.latitude, longitude: r.longitude, address: r.displayName, source: r.source });

const SOURCE_TEXT: Record<IntakeSource, string> = {
  address: 'address search',
  plus_code: 'plus code',
  coordinates: 'coordinates',
  pin: 'pin on the map',
};
/** "from a plus code": how the place was understood, for the line under it. */
export const sourceText = (source: IntakeSource) => SOURCE_TEXT[source] ?? source;

/** Trimmed with inner runs of spaces made one, so "17.4,  78.4 " and "17.4, 78.4" are one search. */
export const searchText = (typed: string) => typed.trim().replace(/\s+/g, ' ');

/**
 * What the field says when a search fails: the server's own words for a 503 (no geocoder: the
 * other ways still work), else a plain retry hint.
 */
export function searchErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 503) return error.serverError === ADDRESS_SEARCH_UNAVAILABLE || !error.serverError
      ? capitalise(ADDRESS_SEARCH_UNAVAILABLE)
      : capitalise(error.serverError);
    if (error.status === 400) return 'Enter an address, a plus code, or "lat, lon"';
    if (error.serverError) return capitalise(error.serverError);
  }
  return 'The search failed; try again, or drop a pin on the map';
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Same place and text: the form need not change. */
export const sameLocation = (a: IntakeLocationDto | null, b: IntakeLocationDto | null) =>
  a === b || (a != null && b != null && a.latitude === b.latitude && a.longitude === b.longitude && a.address === b.address && a.source === b.source);
