import { describe, expect, it } from 'vitest';
import type { AmbulanceDto, CaseDto } from '../../api/contract';
import { fleetCounts } from '../../domain/fleetRules';
import { busyBreakdown, summaryStats } from './summaryStats';

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
