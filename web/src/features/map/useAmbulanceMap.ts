import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ApiError } from '../../api/client';
import type { CaseDto } from '../../api/contract';
import { queries } from '../../api/queries';
import { isActiveCase } from '../../domain/caseRules';
import { statusCounts } from '../../domain/fleetRules';
import { ambulanceFix, pointOf } from '../../domain/liveText';
import { useStaleThresholds } from './liveHooks';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { useLoadState } from '../shared/useLoadState';
import { useNow, useServerNow } from '../shared/useNow';
import { turnoutSeconds } from '../../domain/callLife';
import { unitStatusCounts, unitTurnoutLate } from '../fleet/unitStatus';
import type { LocatedAmbulance, LocatedCase } from './FleetMap';

const isLocated = (a: { location: LocatedAmbulance['location'] | null }): a is LocatedAmbulance =>
  a.location != null && Number.isFinite(a.location.latitude) && Number.isFinite(a.location.longitude);
/** Active cases with a known place (the patient's shared fix, else the intake location): shown on the map beside the fleet. */
const isLocatedActive = (c: CaseDto): c is LocatedCase => isActiveCase(c) && pointOf(c) != null;

/**
 * What the Ambulance Map shows: the located ambulances and patients, their counts and how
 * many ambulances are live. Live through the tab's socket, polled every 30 s while it is down.
 */
export function useAmbulanceMap() {
  const query = useQuery({ ...queries.ambulances(), refetchInterval: usePollingFallback(30_000) });
  const located = useMemo(() => (query.data ?? []).filter(isLocated), [query.data]);
  const casesQuery = useQuery({ ...queries.cases(), refetchInterval: usePollingFallback(30_000) });
  const patients = useMemo(() => (casesQuery.data ?? []).filter(isLocatedActive), [casesQuery.data]);
  // "Stale" is re-evaluated every ~15 s by the clock alone: nothing is refetched.
  const now = useNow();
  const thresholds = useStaleThresholds();
  const counts = useMemo(() => statusCounts(located), [located]);
  const unitCounts = useMemo(() => unitStatusCounts(located), [located]);
  // The turnout flag on the server's clock; a 5 s tick is plenty against a 60 s target.
  const serverNow = useServerNow(5000);
  const turnoutS = turnoutSeconds(useQuery(queries.config()).data);
  const lateIds = useMemo(
    () => new Set(located.filter((a) => unitTurnoutLate(a, serverNow, turnoutS)).map((a) => a.id)) as ReadonlySet<number>,
    [located, serverNow, turnoutS],
  );
  const load = useLoadState([{ query, failText: (e) => (e instanceof ApiError ? 'Failed to fetch ambulances' : 'Error fetching ambulances') }]);

  return {
    load,
    pending: query.isPending,
    located,
    patients,
    /** Of `patients`, the calls whose patient shared a position (the others are at the intake location). */
    sharing: patients.filter((c) => pointOf(c.patient_location) != null).length,
    patientsKnown: casesQuery.data !== undefined,
    now,
    counts,
    unitCounts,
    /** Ambulances still dispatched past the turnout target (NFPA 1710). */
    lateIds,
    live: located.filter((a) => !(ambulanceFix(a, now, thresholds)?.stale ?? true)).length,
  };
}
