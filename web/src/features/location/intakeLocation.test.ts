import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { ADDRESS_SEARCH_UNAVAILABLE } from '../../api/contract';
import { fromSearchResult, pinLocation, sameLocation, searchErrorText, searchText } from './intakeLocation';

describe('intake location', () => {
  it('writes a dropped pin as its own coordinates, five decimals', () => {
    expect(pinLocation(17.412612345, 78.44821)).toEqual({ latitude: 17.412612345, longitude: 78.44821, address: '17.41261, 78.44821', source: 'pin' });
    expect(pinLocation(-33.9, -0.000004).address).toBe('-33.90000, -0.00000');
  });

  it('takes a search result as it was understood', () => {
    expect(fromSearchResult({ displayName: '7J9C+2V Hyderabad', latitude: 17.4, longitude: 78.4, source: 'plus_code' }))
      .toEqual({ latitude: 17.4, longitude: 78.4, address: '7J9C+2V Hyderabad', source: 'plus_code' });
  });

  it('searches one text however it was spaced, and nothing for blanks', () => {
    expect(searchText('  17.4126,   78.4482 ')).toBe('17.4126, 78.4482');
    expect(searchText('   ')).toBe('');
  });

  it('says the geocoder is off in the server\'s words, and other failures plainly', () => {
    expect(searchErrorText(new ApiError(503, ADDRESS_SEARCH_UNAVAILABLE))).toBe('Address search is unavailable; enter coordinates, a plus code or drop a pin');
    expect(searchErrorText(new ApiError(503, undefined))).toMatch(/^Address search is unavailable/);
    expect(searchErrorText(new ApiError(400, 'q: required'))).toBe('Enter an address, a plus code, or "lat, lon"');
    expect(searchErrorText(new TypeError('Failed to fetch'))).toBe('The search failed; try again, or drop a pin on the map');
  });

  it('tells the same location from a changed one', () => {
    const a = pinLocation(17.4, 78.4);
    expect(sameLocation(a, { ...a })).toBe(true);
    expect(sameLocation(a, { ...a, source: 'coordinates' })).toBe(false);
    expect(sameLocation(null, null)).toBe(true);
    expect(sameLocation(a, null)).toBe(false);
  });
});
