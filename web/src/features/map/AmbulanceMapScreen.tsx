import { useCallback, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Typography from '@mui/material/Typography';
import { RefreshIcon } from '../../layout/icons';
import { LoadStateBanner } from '../shared/LoadStateBanner';
import { FleetMap, type MapFocus } from './FleetMap';
import { AmbulanceList, PatientList } from './MapLists';
import { MapLegend } from './MapLegend';
import { mapSubtitle } from './mapSubtitle';
import { StandaloneMapFrame } from './StandaloneMapFrame';
import { useAmbulanceMap } from './useAmbulanceMap';

/**
 * The Ambulance Map screen, in the operator shell (/dashboard/ambulance-map) and as a
 * stand-alone staff page (/ambulance-map): the legend and lists beside the live map.
 */
export function AmbulanceMapScreen({ standalone = false }: { standalone?: boolean }) {
  const { load, pending, located, patients, sharing, patientsKnown, now, counts, unitCounts, lateIds, live } = useAmbulanceMap();
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
  const loaded = load.phase === 'loaded';

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
            {mapSubtitle({ located: located.length, live, calls: patients.length, sharing, known: loaded })}
          </Typography>
        </Box>
        <Button variant="outlined" onClick={() => window.location.reload()} disabled={pending} startIcon={<RefreshIcon />}>
          Refresh
        </Button>
      </Box>

      {load.phase === 'loading' && <Alert severity="info" variant="outlined">Loading ambulances...</Alert>}
      <LoadStateBanner state={load} />
      {loaded && located.length === 0 && <Alert severity="info">No ambulances with location data found</Alert>}

      <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: { xs: 'column-reverse', md: 'row' }, gap: 2 }}>
        {/* The side scrolls as a whole when the legend and both lists are taller than the window (1366×800): each list keeps a useful height. */}
        <Card
          data-testid="map-side"
          sx={{ width: { md: 300 }, flexShrink: 0, display: 'flex', flexDirection: 'column', minHeight: 0, maxHeight: { xs: 420, md: 'none' }, overflowY: 'auto' }}
        >
          <MapLegend counts={counts} unitCounts={unitCounts} known={loaded} patients={patientsKnown ? patients.length : null} />
          <AmbulanceList ambulances={located} now={now} lateIds={lateIds} selectedId={selectedId} onShow={(id) => show('ambulance', id)} />
          <PatientList patients={patients} now={now} onShow={(id) => show('case', id)} />
        </Card>

        <Card ref={mapFrame} sx={{ scrollMarginTop: 72, flex: { md: 1 }, minHeight: { xs: 420, md: 0 }, height: { xs: '60vh', md: 'auto' }, overflow: 'hidden', position: 'relative' }}>
          {/* Absolutely filled, so Leaflet always gets a definite height whatever the layout. */}
          <Box sx={{ position: 'absolute', inset: 0 }}>
            <FleetMap ambulances={located} cases={patients} focus={focus} selectedId={selectedId} onSelect={select} now={now} lateIds={lateIds} />
          </Box>
        </Card>
      </Box>
    </Box>
  );

  return standalone ? <StandaloneMapFrame>{screen}</StandaloneMapFrame> : screen;
}
