import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../api/client';
import { queries } from '../../../api/queries';
import type { AmbulanceDto, CaseDto, UserDto } from '../../../api/contract';
import { utilizationPercent } from '../../../domain/fleetRules';
import { useToast } from '../../../layout/toast';

export interface OverviewCounts {
  totalOperators: number;
  activeCases: number;
  availableAmbulances: number;
  busyAmbulances: number;
  totalCases: number;
  utilization: number;
}

export function countsOf(operators: UserDto[], cases: CaseDto[], ambulances: AmbulanceDto[]): OverviewCounts {
  const busy = ambulances.filter((a) => a.status === 'busy').length;
  return {
    totalOperators: operators.length,
    activeCases: cases.filter((c) => c.status === 'active').length,
    availableAmbulances: ambulances.filter((a) => a.status === 'available').length,
    busyAmbulances: busy,
    totalCases: cases.length,
    utilization: utilizationPercent(busy, ambulances.length),
  };
}

const SOURCES = [
  { key: 'operators', warning: 'Could not load operators data' },
  { key: 'cases', warning: 'Could not load cases data' },
  { key: 'ambulances', warning: 'Could not load ambulances data' },
] as const;

/**
 * The three lists behind the Admin Dashboard. A non-OK answer warns about that list on
 * screen (its counts stay 0); a failure to reach the server at all toasts 'Failed to load dashboard
 * data' and zeroes every count (SPEC §8).
 */
export function useOverviewData() {
  const toast = useToast();
  const operators = useQuery(queries.operators());
  const cases = useQuery(queries.cases());
  const ambulances = useQuery(queries.ambulances());
  const results = { operators, cases, ambulances };

  const errors = SOURCES.map((s) => results[s.key].error);
  const crashed = errors.some((e) => e != null && !(e instanceof ApiError));
  const warnings = crashed ? [] : SOURCES.filter((s, i) => errors[i] instanceof ApiError).map((s) => s.warning);

  // The crash toast is shown once per occurrence, not on every render; warnings stay on screen.
  const toasted = useRef(false);
  useEffect(() => {
    if (crashed && !toasted.current) toast('Failed to load dashboard data', 'error');
    toasted.current = crashed;
  }, [crashed, toast]);

  const loading = operators.isPending || cases.isPending || ambulances.isPending;
  const counts = crashed
    ? countsOf([], [], [])
    : countsOf(operators.data ?? [], cases.data ?? [], ambulances.data ?? []);

  return {
    loading: loading && !crashed,
    counts,
    warnings,
    recentCases: crashed ? [] : (cases.data ?? []).slice(0, 5),
    casesPending: cases.isPending && !crashed,
  };
}
