import { describe, expect, it } from 'vitest';
import type { AmbulanceDto, CaseDto } from '../../api/contract';
import { summaryStats } from './summaryStats';

const amb = (status: string) => ({ status }) as AmbulanceDto;
const kase = (status: string) => ({ status }) as CaseDto;

describe('summaryStats', () => {
  it('counts active cases and the fleet by status, utilization rounded', () => {
    const s = summaryStats([kase('active'), kase('closed'), kase('active')], [amb('busy'), amb('available'), amb('available'), amb('maintenance'), amb('available'), amb('busy')]);
    expect(s).toEqual({ activeCases: 2, available: 3, busy: 2, total: 6, utilization: 33 });
  });
  it('is 0 percent with no fleet', () => {
    expect(summaryStats([], []).utilization).toBe(0);
  });
});
