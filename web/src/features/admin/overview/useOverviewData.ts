import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../api/client';
import { queries } from '../../../api/queries';
import type { AmbulanceDto, CaseCounts, CaseDto, UserDto } from '../../../api/contract';
import { useToast } from '../../../layout/toast';
import { activeCasesOf } from '../../../domain/caseRules';
import { useLoadState } from '../../shared/useLoadState';
import { summaryStats } from '../../summary/summaryStats';

/** Each count is null while its lists are unknown (still loading or failed): never a 0 for "unknown". */
export interface OverviewCounts {
  totalOperators: number | null;
  activeCases: number | null;
  availableAmbulances: number | null;
  busyAmbulances: number | null;
  totalCases: number | null;
  utilization: number | null;
  /** What Busy Ambulances holds, in the fleet screen's words. */
  busyBreakdown: { onEmergency: number; busyNoCase: number } | null;
}

/**
 * The counts from whichever lists are known. Ambulances are classified against the cases
 * exactly as the fleet screen does (SPEC §4), so both screens say the same numbers.
 */
export function countsOf(operators: UserDto[] | undefined, cases: CaseDto[] | undefined, ambulances: AmbulanceDto[] | undefined, caseCounts?: CaseCounts): OverviewCounts {
  const fleet = cases && ambulances ? summaryStats(cases, ambulances) : null;
  return {
    totalOperators: operators ? operators.length : null,
    activeCases: cases ? activeCasesOf(cases).length : null,
    availableAmbulances: fleet ? fleet.available : null,
    busyAmbulances: fleet ? fleet.busy : null,
    // Every case stored, from the board's counts (the board holds only what is open or recent).
    totalCases: cases ? (caseCounts?.total ?? cases.length) : null,
    utilization: fleet ? fleet.utilization : null,
    busyBreakdown: fleet ? { onEmergency: fleet.onEmergency, busyNoCase: fleet.busyNoCase } : null,
  };
}

/** SPEC: the admin dashboard's Recent Cases are the first 5. */
export const RECENT_CASES = 5;

const newestFirst = (a: CaseDto, b: CaseDto) => Date.parse(b.created_at) - Date.parse(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The newest cases: the first history page of RECENT_CASES (newest first, fetched when the
 * overview opens) merged with the live board, which holds every call taken since (a new call is
 * open, so on the board): a call taken while the overview is open shows at once, with no page
 * refetched, and a call's latest version wins. Bounded: the board and 5 rows.
 */
export function recentCasesOf(board: readonly CaseDto[], page: readonly CaseDto[] | undefined, n = RECENT_CASES): CaseDto[] {
  const byId = new Map<string, CaseDto>();
  for (const c of [...(page ?? []), ...board]) {
    const held = byId.get(c.id);
    if (!held || held.version < c.version) byId.set(c.id, c);
  }
  return [...byId.values()].sort(newestFirst).slice(0, n);
}

const SOURCES = [
  { key: 'operators', warning: 'Could not load operators data' },
  { key: 'cases', warning: 'Could not load cases data' },
  { key: 'ambulances', warning: 'Could not load ambulances data' },
] as const;

/** SPEC §8: a non-OK answer names its list; a failure to reach the server is 'Failed to load dashboard data'. */
const failTextOf = (warning: string) => (e: unknown) => (e instanceof ApiError ? warning : 'Failed to load dashboard data');

/**
 * The three lists behind the Admin Dashboard. A list that fails leaves its tiles unknown (a
 * dash) and is named in the failure panel with a Retry until it loads; the other lists' tiles
 * still show. A failure to reach the server also toasts 'Failed to load dashboard data' once.
 */
export function useOverviewData() {
  const toast = useToast();
  const operators = useQuery(queries.operators());
  const cases = useQuery(queries.cases());
  const caseCounts = useQuery(queries.caseCounts());
  const recentPage = useQuery(queries.caseHistory({ limit: RECENT_CASES }));
  const ambulances = useQuery(queries.ambulances());
  const results = { operators, cases, ambulances };
  const load = useLoadState(SOURCES.map((s) => ({ query: results[s.key], failText: failTextOf(s.warning) })));

  const crashed = SOURCES.some((s) => { const e = results[s.key].error; return e != null && !(e instanceof ApiError); });
  // The crash toast is shown once per occurrence, not on every render; the panel stays on screen.
  const toasted = useRef(false);
  useEffect(() => {
    if (crashed && !toasted.current) toast('Failed to load dashboard data', 'error');
    toasted.current = crashed;
  }, [crashed, toast]);

  /** A tile is loading only while one of its lists is on its way and none has failed. */
  const pending = (...qs: (typeof operators | typeof cases | typeof ambulances)[]) =>
    qs.some((q) => q.data === undefined) && load.phase !== 'failed';

  return {
    load,
    counts: countsOf(operators.data, cases.data, ambulances.data, caseCounts.data),
    pending: {
      operators: pending(operators),
      cases: pending(cases),
      fleet: pending(cases, ambulances),
      // The list waits for its page too (no reshuffle as it lands); a refused page does not hold it.
      recent: pending(cases) || recentPage.isPending,
    },
    // Without the history page (still loading, or refused) the board's newest stand in.
    recentCases: cases.data ? recentCasesOf(cases.data, recentPage.data?.cases) : null,
  };
}
