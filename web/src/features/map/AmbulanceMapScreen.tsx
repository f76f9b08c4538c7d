import { useCallback, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { queries } from '../../api/queries';
import { useSession } from '../../auth/useSession';
import type { CaseDto } from '../../api/contract';
import { patientNameOf } from '../../domain/caseRules';
import { markerColor } from '../../domain/fleetRules';
import { ambulanceFix, caseFix, pointOf } from '../../domain/liveText';
import { Logo } from '../../layout/Logo';
import { ButtonLink } from '../../layout/links';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { AmbulanceStatusBadge } from '../shared/StatusBadges';
import { StaleChip } from '../cases/LiveCaseInfo';
import { FleetMap, STALE_OPACITY, type LocatedAmbulance, type LocatedCase, type MapFocus } from './FleetMap';
import { useNow } from '../shared/useNow';
import { PATIENT_COLOR } from './markerIcons';
import { mapSubtitle } from './mapSubtitle';
import { LoadStateBanner } from '../shared/LoadStateBanner';
import { useLoadState } from '../shared/useLoadState';

const isLocated = (a: { location: LocatedAmbulance['location'] | null }): a is LocatedAmbulance =>
  a.location != null && Number.isFinite(a.location.latitude) && Number.isFinite(a.location.longitude);
/** Active cases whose patient has shared a location: shown on the map beside the fleet. */
const isLocatedActive = (c: CaseDto): c is LocatedCase => c.status === 'active' && pointOf(c) != null;

/**
 * The Ambulance Map screen, in the operator shell (/dashboard/ambulance-map) and as a
 * stand-alone staff page (/ambulance-map). Live through the tab's socket, polled every
 * 30 s while it is down.
 */
export function AmbulanceMapScreen({ standalone = false }: { standalone?: boolean }) {
  const query = useQuery({ ...queries.ambulances(), refetchInterval: usePollingFallback(30_000) });
  const located = useMemo(() => (query.data ?? []).filter(isLocated), [query.data]);
  const casesQuery = useQuery({ ...queries.cases(), refetchInterval: usePollingFallback(30_000) });
  const patients = useMemo(() => (casesQuery.data ?? []).filter(isLocatedActive), [casesQuery.data]);
  // "Stale" is re-evaluated every ~15 s by the clock alone: nothing is refetched.
  const now = useNow();
  const counts = useMemo(() => {
    const c = { available: 0, busy: 0, maintenance: 0 };
    for (const a of located) if (a.status in c) c[a.status as keyof typeof c] += 1;
    return c;
  }, [located]);
  const [focus, setFocus] = useState<MapFocus | null>(null);
  // The selected ambulance draws its trail (a marker click or a list entry selects it).
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const select = useCallback((id: number | null) => setSelectedId(id), []);
  const mapFrame = useRef<HTMLDivElement>(null);
  const show = (kind: MapFocus['kind'], id: number | string) => {
    setFocus({ kind, id, at: Date.now() });
    if (kind === 'ambulance') setSelectedId(id as number);
    // On a phone the list is below the map: bring the map (and the opened popup) into view.
    mapFrame.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  };

  const load = useLoadState([{ query, failText: (e) => (e instanceof ApiError ? 'Failed to fetch ambulances' : 'Error fetching ambulances') }]);
  const loaded = load.phase === 'loaded';
  const patientsKnown = casesQuery.data !== undefined;
  const empty = loaded && located.length === 0;
  const live = located.filter((a) => !(ambulanceFix(a, now)?.stale ?? true)).length;

  const screen = (
    <Box
      data-testid="ambulance-map-screen"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        gap: 2,
        // Full height on wide screens: the shell's header and padding are taken off.
        height: standalone
          ? { md: 'calc(100dvh - 64px - 48px)' }
          : { md: 'calc(100dvh - 64px - 48px)', lg: 'calc(100dvh - 64px - 64px)' },
        minHeight: { md: 520 },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Box>
          <Typography variant="h4" component="h1">Ambulance Tracker</Typography>
          <Typography color="text.secondary" sx={{ mt: 0.25 }} data-testid="map-subtitle">
            {mapSubtitle({ located: located.length, live, patients: patients.length, known: loaded })}
          </Typography>
        </Box>
        <Button variant="outlined" onClick={() => window.location.reload()} disabled={query.isPending} startIcon={<RefreshIcon />}>
          Refresh
        </Button>
      </Box>

      {load.phase === 'loading' && <Alert severity="info" variant="outlined">Loading ambulances...</Alert>}
      <LoadStateBanner state={load} />
      {empty && <Alert severity="info">No ambulances with location data found</Alert>}

      <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: { xs: 'column-reverse', md: 'row' }, gap: 2 }}>
        <Card sx={{ width: { md: 300 }, flexShrink: 0, display: 'flex', flexDirection: 'column', minHeight: 0, maxHeight: { xs: 420, md: 'none' } }}>
          <Box sx={{ p: 2, pb: 1.5, borderBottom: 1, borderColor: 'divider' }}>
            <Typography variant="subtitle2" sx={{ fontWeight: 700, mb: 1 }}>Status</Typography>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }} data-testid="map-legend">
              <LegendItem label="Available" count={loaded ? counts.available : null} color={markerColor('available')} />
              <LegendItem label="Busy" count={loaded ? counts.busy : null} color={markerColor('busy')} />
              {counts.maintenance > 0 && <LegendItem label="Maintenance" count={counts.maintenance} color={markerColor('maintenance')} />}
              <LegendItem label="Patients" count={patientsKnown ? patients.length : null} color={PATIENT_COLOR} />
            </Box>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1, lineHeight: 1.4 }}>
              Faded: no new position for 2 minutes. Select an ambulance to draw its last 30 minutes.
            </Typography>
          </Box>
          <Typography variant="subtitle2" sx={{ fontWeight: 700, px: 2, pt: 1.5 }}>Ambulances on the map</Typography>
          <List dense sx={{ overflowY: 'auto', flex: 1, minHeight: 0, px: 1 }} aria-label="Ambulances on the map">
            {located.map((a) => {
              const stale = ambulanceFix(a, now)?.stale ?? true;
              return (
                <ListItem key={a.id} disablePadding><ListItemButton
                  data-testid="map-list-item"
                  data-stale={stale}
                  selected={a.id === selectedId}
                  aria-current={a.id === selectedId ? 'true' : undefined}
                  onClick={() => show('ambulance', a.id)}
                  sx={{ borderRadius: 1, gap: 1, justifyContent: 'space-between' }}
                >
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                    <Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: markerColor(a.status), flexShrink: 0, opacity: stale ? STALE_OPACITY : 1 }} />
                    <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>{a.license_plate}</Typography>
                  </Box>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexShrink: 0 }}>
                    {stale && <StaleChip title="No position from this ambulance for more than 2 minutes" />}
                    <AmbulanceStatusBadge status={a.status} />
                  </Box>
                </ListItemButton></ListItem>
              );
            })}
          </List>
          {patients.length > 0 && (
            <>
              <Typography variant="subtitle2" sx={{ fontWeight: 700, px: 2, pt: 1, borderTop: 1, borderColor: 'divider' }}>Patients</Typography>
              <List dense sx={{ overflowY: 'auto', maxHeight: 200, flexShrink: 0, px: 1 }} aria-label="Patients on the map">
                {patients.map((c) => {
                  const fix = caseFix(c, now);
                  return (
                    <ListItem key={c.id} disablePadding><ListItemButton data-testid="map-patient-item" data-stale={!!fix?.stale} onClick={() => show('case', c.id)} sx={{ borderRadius: 1, gap: 1, justifyContent: 'space-between' }}>
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                        <Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: PATIENT_COLOR, flexShrink: 0, opacity: fix?.stale ? STALE_OPACITY : 1 }} />
                        <Box sx={{ minWidth: 0 }}>
                          <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>{patientNameOf(c)}</Typography>
                          <Typography variant="caption" color="text.secondary" noWrap component="div">
                            Last fix: {fix?.time}{fix?.accuracy ? ` · ${fix.accuracy}` : ''}
                          </Typography>
                        </Box>
                      </Box>
                      {fix?.stale && <StaleChip title="The patient's position is more than 2 minutes old" />}
                    </ListItemButton></ListItem>
                  );
                })}
              </List>
            </>
          )}
        </Card>

        <Card ref={mapFrame} sx={{ scrollMarginTop: 72, flex: { md: 1 }, minHeight: { xs: 420, md: 0 }, height: { xs: '60vh', md: 'auto' }, overflow: 'hidden', position: 'relative' }}>
          {/* Absolutely filled, so Leaflet always gets a definite height whatever the layout. */}
          <Box sx={{ position: 'absolute', inset: 0 }}>
            <FleetMap ambulances={located} cases={patients} focus={focus} selectedId={selectedId} onSelect={select} now={now} />
          </Box>
        </Card>
      </Box>
    </Box>
  );

  if (!standalone) return screen;
  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default' }}>
      <AppBar position="static" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Toolbar sx={{ gap: 2, justifyContent: 'space-between' }}>
          <Logo size={32} />
          <BackToShell />
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ p: { xs: 2, sm: 3 } }}>{screen}</Box>
    </Box>
  );
}

function BackToShell() {
  const session = useSession();
  if (!session) return null;
  return session.role === 'admin'
    ? <ButtonLink to="/admin-dashboard" variant="text">Admin Portal</ButtonLink>
    : <ButtonLink to="/dashboard" variant="text">Dashboard</ButtonLink>;
}

/** A legend entry; its count is a dash until known (never a zero standing in for "unknown"). */
function LegendItem({ label, count, color }: { label: string; count: number | null; color: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }} data-testid={`legend-${label.toLowerCase()}`}>
      <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: color }} />
      <Typography variant="body2">{label}</Typography>
      <Typography variant="body2" sx={{ fontWeight: 800 }} aria-label={count == null ? 'Unknown' : undefined}>{count ?? '–'}</Typography>
    </Box>
  );
}

function RefreshIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden>
      <path fill="currentColor" d="M17.65 6.35A7.958 7.958 0 0 0 12 4c-4.42 0-7.99 3.58-7.99 8s3.57 8 7.99 8c3.73 0 6.84-2.55 7.73-6h-2.08A5.99 5.99 0 0 1 12 18c-3.31 0-6-2.69-6-6s2.69-6 6-6c1.66 0 3.14.69 4.22 1.78L13 11h7V4l-2.35 2.35z" />
    </svg>
  );
}
