import { useCallback, useMemo } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { alpha, useTheme } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { queries } from '../../api/queries';
import { activeCasesOf } from '../../domain/caseRules';
import { fleetCounts } from '../../domain/fleetRules';
import { ScreenTitle } from '../../layout/ScreenTitle';
import { AmbulanceIcon, ErrorIcon, TimerIcon } from '../../layout/icons';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { FleetCards, FleetTable } from './FleetTable';
import { FLEET_FILTERS, applyFilter, fleetRows, type FleetFilter } from './fleetFilters';
import { fleetSearchOf } from './fleetSearch';
import { useFleetToast, useSendTracker } from './useSendTracker';
import { LoadStateBanner } from '../shared/LoadStateBanner';
import { useLoadState } from '../shared/useLoadState';
import { useNoticeOnce } from '../shared/useNoticeOnce';
import { UnitStatusLegend } from './UnitStatusLegend';
import { unitStatusCounts } from './unitStatus';

const route = getRouteApi('/_operator/dashboard/ambulance-tracking');

/** One toast per failed fetch (a later failure toasts again, a re-render does not). */
function useFailureToast(failedAt: number, message: string) {
  const toast = useFleetToast();
  const show = useCallback((text: string) => toast(text, 'error'), [toast]);
  useNoticeOnce(failedAt, failedAt ? message : null, show);
}

/**
 * /dashboard/ambulance-tracking: Ambulance Fleet Status. Live through the tab's socket;
 * while it is down, ambulances are polled every 60 s and cases every 30 s (SPEC §7). The filter
 * is the route's search param (a reload or a link shows the same; Back works).
 */
export function FleetStatusScreen() {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('lg'), { noSsr: true });
  const filter: FleetFilter = route.useSearch().filter ?? 'all';
  const navigate = route.useNavigate();

  const ambulancesQuery = useQuery({ ...queries.ambulances(), refetchInterval: usePollingFallback(60_000) });
  const casesQuery = useQuery({
    ...queries.cases(),
    refetchInterval: usePollingFallback(30_000),
    // Only active cases matter on this screen.
    select: activeCasesOf,
  });
  useFailureToast(ambulancesQuery.isError ? ambulancesQuery.errorUpdatedAt : 0, 'Error loading ambulance data.');
  useFailureToast(casesQuery.isError ? casesQuery.errorUpdatedAt : 0, 'Error loading cases data.');
  // Cases decide On Emergency / Busy: without them no ambulance can be counted.
  const load = useLoadState([
    { query: ambulancesQuery, failText: () => 'Error loading ambulance data.' },
    { query: casesQuery, failText: () => 'Error loading cases data.' },
  ]);
  const loaded = load.phase === 'loaded';

  const ambulances = useMemo(() => ambulancesQuery.data ?? [], [ambulancesQuery.data]);
  const activeCases = useMemo(() => casesQuery.data ?? [], [casesQuery.data]);
  const rows = useMemo(() => fleetRows(ambulances, activeCases), [ambulances, activeCases]);
  const counts = useMemo(() => fleetCounts(ambulances, activeCases), [ambulances, activeCases]);
  const visible = useMemo(() => applyFilter(rows, filter), [rows, filter]);
  const unitCounts = useMemo(() => unitStatusCounts(ambulances), [ambulances]);
  const tracker = useSendTracker(ambulances, activeCases);
  const current = FLEET_FILTERS.find((f) => f.key === filter)!;

  return (
    <Box>
      <ScreenTitle title="Ambulance Fleet Status" subtitle="Where every ambulance is and which emergency it is on, live" />
      <LoadStateBanner state={load} />

      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: { xs: 1, sm: 2 }, mb: 3 }}>
        <Counter label="On Emergency" hint="On an active case" value={loaded ? counts.emergency : null} color="error" icon={<ErrorIcon />} />
        <Counter label="Available" hint="Free, no active case" value={loaded ? counts.available : null} color="success" icon={<AmbulanceIcon />} />
        <Counter label="Busy" hint="Busy, no active case" value={loaded ? counts.busy : null} color="warning" icon={<TimerIcon />} />
      </Box>

      <Box role="group" aria-label="Filter ambulances" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        {FLEET_FILTERS.map((f) => {
          const selected = f.key === filter;
          return (
            <Button
              key={f.key}
              variant={selected ? 'contained' : 'outlined'}
              color={selected ? 'secondary' : 'inherit'}
              aria-pressed={selected}
              onClick={() => void navigate({ search: fleetSearchOf(f.key) })}
              sx={{ borderColor: selected ? undefined : 'divider', textTransform: 'none' }}
            >
              {f.label}
              {loaded && <Box
                component="span"
                sx={{
                  ml: 1, px: 0.9, minWidth: 24, borderRadius: 99, fontSize: 12, fontWeight: 700, lineHeight: '20px',
                  bgcolor: selected ? 'rgba(255,255,255,0.22)' : 'action.selected',
                }}
              >
                {counts[f.key]}
              </Box>}
            </Button>
          );
        })}
      </Box>

      <Card sx={{ px: 2, py: 1.5, mb: 2 }}>
        <UnitStatusLegend counts={ambulancesQuery.data ? unitCounts : null} />
      </Card>

      {load.phase === 'failed' ? null : load.phase === 'loading' ? (
        <Card sx={{ p: 6, display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2 }} role="status">
          <CircularProgress size={28} />
          <Typography color="text.secondary">Loading ambulances...</Typography>
        </Card>
      ) : visible.length === 0 ? (
        <Card sx={{ p: { xs: 4, sm: 6 }, textAlign: 'center' }} data-testid="fleet-empty">
          <AmbulanceIcon sx={{ fontSize: 48, color: 'text.disabled', mb: 1 }} />
          <Typography variant="h6" component="p">No ambulances found</Typography>
          <Typography color="text.secondary">{current.emptyReason}</Typography>
        </Card>
      ) : narrow ? (
        <FleetCards rows={visible} tracker={tracker} />
      ) : (
        <FleetTable rows={visible} tracker={tracker} />
      )}
    </Box>
  );
}

type CounterColor = 'error' | 'success' | 'warning';

/** A fleet counter; `value` is null until known (a dash, never a zero standing in for "unknown"). */
function Counter({ label, hint, value, color, icon }: { label: string; hint: string; value: number | null; color: CounterColor; icon: React.ReactNode }) {
  const id = `fleet-counter-${label.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <Card component="section" aria-labelledby={id} sx={{ p: { xs: 1.5, sm: 2.5 }, display: 'flex', alignItems: 'center', gap: 2, borderLeft: 4, borderLeftColor: `${color}.main`, minWidth: 0 }}>
      <Avatar variant="rounded" sx={(t) => ({ bgcolor: alpha(t.palette[color].main, t.palette.mode === 'dark' ? 0.22 : 0.12), color: `${color}.main`, width: 48, height: 48, display: { xs: 'none', md: 'flex' } })}>
        {icon}
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography id={id} variant="body2" color="text.secondary" sx={{ fontWeight: 600, fontSize: { xs: 12, sm: 14 }, lineHeight: 1.3 }}>{label}</Typography>
        <Typography variant="h4" component="p" data-testid={id} aria-label={value == null ? 'Unknown' : undefined} sx={{ fontWeight: 800, lineHeight: 1.2, fontSize: { xs: 26, sm: 34 } }}>
          {value ?? '–'}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ display: { xs: 'none', sm: 'block' }, lineHeight: 1.3 }}>{hint}</Typography>
      </Box>
    </Card>
  );
}
