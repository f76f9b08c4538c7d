import { describe, expect, it } from 'vitest';
import type { AmbulanceDto, CaseDto } from '../../api/contract';
import { fleetCounts } from '../../domain/fleetRules';
import { busyBreakdown, callStats, pastTargetCaption, summaryStats, waitingCaption } from './summaryStats';

let nextId = 1;
const amb = (status: string) => ({ id: nextId++, status, license_plate: `P-${nextId}` }) as AmbulanceDto;
const kase = (status: string, ambulance?: AmbulanceDto) => ({ status, ambulance_id: ambulance?.id ?? null, license_plate: null }) as unknown as CaseDto;

describe('summaryStats', () => {
  it('counts active cases and the fleet by status, utilization rounded', () => {
    const s = summaryStats([kase('active'), kase('closed'), kase('active')], [amb('busy'), amb('available'), amb('available'), amb('maintenance'), amb('available'), amb('busy')]);
    expect(s).toMatchObject({ activeCases: 2, available: 3, busy: 2, total: 6, utilization: 33 });
  });
  it('is 0 percent with no fleet', () => {
    expect(summaryStats([], []).utilization).toBe(0);
  });
  it('agrees with the fleet screen: Busy Ambulances is its On Emergency plus its Busy', () => {
    const onCase = amb('busy');
    const busyIdle = amb('busy');
    const free = amb('available');
    const cases = [kase('active', onCase)];
    const fleet = fleetCounts([onCase, busyIdle, free], cases);
    const s = summaryStats(cases, [onCase, busyIdle, free]);
    expect(fleet).toMatchObject({ emergency: 1, busy: 1, available: 1 });
    expect(s).toMatchObject({ busy: fleet.emergency + fleet.busy, available: fleet.available, onEmergency: 1, busyNoCase: 1 });
    expect(busyBreakdown(s)).toBe('1 On Emergency · 1 Busy');
  });
});

describe('callStats: what is urgent now (issue 25)', () => {
  const T0 = Date.parse('2026-11-24T10:00:00Z');
  const ago = (minutes: number) => new Date(T0 - minutes * 60_000).toISOString();
  const call = (over: Partial<CaseDto>) => ({ status: 'active', priority: 1, call_received_at: ago(1), assignment: null, assignments: over.assignment ? [over.assignment] : [], ...over }) as CaseDto;

  it('counts two P1 waiting and one P1 past target as the issue saw them, and names the oldest of the most urgent waiting', () => {
    const cases = [
      call({ status: 'pending', priority: 1, call_received_at: ago(4) }),
      call({ status: 'pending', priority: 1, call_received_at: ago(2) }),
      call({ status: 'pending', priority: 3, call_received_at: ago(9) }),
      call({ priority: 1, call_received_at: ago(20) }),
      call({ priority: 2, call_received_at: ago(5) }),
      call({ status: 'closed', priority: 1, call_received_at: ago(59) }),
    ];
    const s = callStats(cases, undefined, T0);
    expect(s).toMatchObject({ waiting: 3, firstWaiting: { priority: 1, waitedMs: 4 * 60_000 }, pastTarget: { 1: 1, 2: 0, 3: 0, 4: 0 }, pastTargetTotal: 1 });
    expect(waitingCaption(s)).toBe('Oldest P1, waiting 4 min');
    expect(pastTargetCaption(s)).toBe('P1: 1');
  });

  it('says when nothing waits and nothing is late', () => {
    const s = callStats([call({})], undefined, T0);
    expect(s).toMatchObject({ waiting: 0, firstWaiting: null, pastTargetTotal: 0 });
    expect(waitingCaption(s)).toBe('None waiting');
    expect(pastTargetCaption(s)).toBe('No open call past its target');
  });

  it('lists each priority that has a call past target, a waiting one included', () => {
    const s = callStats([
      call({ priority: 1, call_received_at: ago(16) }),
      call({ status: 'pending', priority: 3, call_received_at: ago(121) }),
      call({ priority: 3, call_received_at: ago(130) }),
    ], undefined, T0);
    expect(pastTargetCaption(s)).toBe('P1: 1 · P3: 2');
    expect(s.pastTargetTotal).toBe(3);
  });
});
