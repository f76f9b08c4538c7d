import { describe, expect, it } from 'vitest';
import { FLEET_FILTERS } from './fleetFilters';
import { fleetSearchOf, parseFleetSearch } from './fleetSearch';

describe('the fleet screen\'s search params', () => {
  it('keeps every filter but the default', () => {
    expect(parseFleetSearch({ filter: 'emergency' })).toEqual({ filter: 'emergency' });
    expect(parseFleetSearch({ filter: 'available' })).toEqual({ filter: 'available' });
    expect(parseFleetSearch({ filter: 'busy' })).toEqual({ filter: 'busy' });
  });

  it('leaves All Ambulances (the default) out of the URL', () => {
    expect(parseFleetSearch({})).toEqual({});
    expect(parseFleetSearch({ filter: 'all' })).toEqual({});
    expect(fleetSearchOf('all')).toEqual({});
  });

  it('falls back to All Ambulances for garbage, and ignores params of no field', () => {
    expect(parseFleetSearch({ filter: 'Busy' })).toEqual({});
    expect(parseFleetSearch({ filter: 3, other: 'x' })).toEqual({});
    expect(parseFleetSearch({ filter: ['busy'] })).toEqual({});
  });

  it('overrides a refused filter: the router lays the validated search over the raw one', () => {
    for (const raw of [{ filter: 'sideways' }, { filter: 'all' }]) expect({ ...raw, ...parseFleetSearch(raw) }).toEqual({});
  });

  it('writes every button as a search the route reads back as the same button', () => {
    for (const { key } of FLEET_FILTERS) expect(parseFleetSearch(fleetSearchOf(key)).filter ?? 'all').toBe(key);
  });
});
