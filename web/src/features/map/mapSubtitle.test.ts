import { describe, expect, it } from 'vitest';
import { mapSubtitle } from './mapSubtitle';

describe('mapSubtitle', () => {
  it('never says "moving live" when no marker is live', () => {
    const text = mapSubtitle({ located: 8, live: 0, calls: 0, sharing: 0, known: true });
    expect(text).not.toMatch(/moving live/);
    expect(text).toBe('8 ambulances on the map · No live positions — last known shown');
  });
  it('says moving live when every marker is live', () => {
    expect(mapSubtitle({ located: 1, live: 1, calls: 2, sharing: 2, known: true })).toBe('1 ambulance on the map, moving live · 2 patients sharing a location');
  });
  it('splits live and last-known markers', () => {
    expect(mapSubtitle({ located: 5, live: 2, calls: 0, sharing: 0, known: true })).toBe('5 ambulances on the map · 2 moving live, 3 last known only');
  });
  it('claims nothing before the list is known', () => {
    expect(mapSubtitle({ located: 0, live: 0, calls: 0, sharing: 0, known: false })).toBe('Every ambulance with a known position');
  });
  it('never says patients share a location of calls placed where the phone call said', () => {
    const text = mapSubtitle({ located: 8, live: 8, calls: 4, sharing: 0, known: true });
    expect(text).not.toMatch(/\d patients? sharing/);
    expect(text).toBe('8 ambulances on the map, moving live · 4 calls on the map, no patient sharing a location');
    expect(mapSubtitle({ located: 8, live: 8, calls: 4, sharing: 1, known: true }))
      .toBe('8 ambulances on the map, moving live · 4 calls on the map, 1 patient sharing a location');
  });
});
