import { describe, expect, it } from 'vitest';
import { unitColor, unitLabel, unitSeconds, unitStatus, unitStatusCounts, unitTurnoutLate } from './unitStatus';

const T = Date.parse('2026-03-01T10:00:00.000Z');
const ago = (s: number) => new Date(T - s * 1000).toISOString();

describe('unit status on the fleet screens', () => {
  it('reads the unit status, a busy one from an older server as dispatched', () => {
    expect(unitStatus({ status: 'busy', unit_status: 'on_scene', unit_status_since: ago(10) })).toBe('on_scene');
    expect(unitStatus({ status: 'busy' })).toBe('dispatched');
    expect(unitStatus({ status: 'available' })).toBe('available');
    expect(unitStatus({ status: 'retired' as never })).toBeNull();
  });

  it('gives each status its own colour and word, an unknown one the spec\'s text', () => {
    const colours = new Set((['available', 'dispatched', 'en_route', 'on_scene', 'transporting', 'at_hospital', 'maintenance'] as const)
      .map((s) => unitColor({ status: 'busy', unit_status: s })));
    expect(colours.size).toBe(7);
    expect(unitLabel({ status: 'busy', unit_status: 'en_route' })).toBe('En route');
    expect(unitLabel({ status: 'retired' as never })).toBe('RETIRED');
  });

  it('counts the time in the step', () => {
    expect(unitSeconds({ status: 'busy', unit_status: 'en_route', unit_status_since: ago(125) }, T)).toBe(125);
    expect(unitSeconds({ status: 'available', unit_status: 'available', unit_status_since: null }, T)).toBeNull();
  });

  it('flags a unit still dispatched past the turnout target, and only that', () => {
    expect(unitTurnoutLate({ status: 'busy', unit_status: 'dispatched', unit_status_since: ago(61) }, T)).toBe(true);
    expect(unitTurnoutLate({ status: 'busy', unit_status: 'dispatched', unit_status_since: ago(60) }, T)).toBe(false);
    expect(unitTurnoutLate({ status: 'busy', unit_status: 'dispatched', unit_status_since: ago(45) }, T, 30)).toBe(true);
    expect(unitTurnoutLate({ status: 'busy', unit_status: 'en_route', unit_status_since: ago(600) }, T)).toBe(false);
    expect(unitTurnoutLate({ status: 'busy', unit_status: 'dispatched', unit_status_since: null }, T)).toBe(false);
  });

  it('counts every status, zeros included', () => {
    const counts = unitStatusCounts([
      { status: 'available', unit_status: 'available' },
      { status: 'busy', unit_status: 'on_scene' },
      { status: 'busy', unit_status: 'on_scene' },
      { status: 'retired' as never },
    ]);
    expect(counts).toEqual({ available: 1, dispatched: 0, en_route: 0, on_scene: 2, transporting: 0, at_hospital: 0, handover: 0, maintenance: 0 });
  });
});
