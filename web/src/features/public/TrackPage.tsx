import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ApiError } from '../../api/client';
import { PlainPage } from '../../layout/PlainPage';
import { useToast } from '../../layout/toast';
import { formatPositionTime } from '../map/positionTime';
import { useTrackedPosition } from './useTrackedPosition';

const TrackMap = lazy(() => import('../map/TrackMap').then((m) => ({ default: m.TrackMap })));

const MAP_HEIGHT = 600;

/**
 * /track/{ambulanceId}?t=TOKEN: anyone holding the tracking link watches the ambulance
 * come. Active once there is an ambulance id and the link answers.
 */
export function TrackPage({ ambulanceId, token }: { ambulanceId: string; token: string }) {
  const { query } = useTrackedPosition(ambulanceId, token);
  const active = Boolean(ambulanceId) && query.status === 'success';
  const data = query.data;
  const point = data && data.latitude != null && data.longitude != null
    ? { latitude: data.latitude, longitude: data.longitude, updated_at: data.updated_at }
    : null;

  const errorText = !ambulanceId
    ? 'Failed to update location'
    : query.isError
      ? (query.error instanceof ApiError && query.error.serverError) || 'Failed to update location'
      : null;
  useErrorToast(errorText);

  return (
    <PlainPage>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 1.5 }}>
        <Box>
          <Typography variant="h4" component="h1">Ambulance Tracking</Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            {data ? `Ambulance ${data.license_plate} is on its way.` : 'Follow the ambulance on its way to you.'}
          </Typography>
        </Box>
        <Chip
          data-testid="tracking-badge"
          label={active ? 'Live Tracking Active' : 'Tracking Inactive'}
          color={active ? 'success' : 'default'}
          variant={active ? 'filled' : 'outlined'}
          icon={<Box component="span" sx={{ width: 8, height: 8, ml: '10px !important', borderRadius: '50%', bgcolor: active ? '#fff' : 'text.disabled' }} />}
          sx={{ fontWeight: 700 }}
        />
      </Box>

      <CyclingProgress />

      {errorText && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="tracking-error">
          <strong>Error:</strong> {errorText}
        </Alert>
      )}

      <Paper variant="outlined" sx={{ height: MAP_HEIGHT, overflow: 'hidden', position: 'relative' }}>
        <Suspense fallback={<Box sx={{ height: '100%', bgcolor: '#e3e6ea' }} />}>
          <TrackMap ambulanceId={ambulanceId} point={point} />
        </Suspense>
      </Paper>

      <Box sx={{ mt: 1.5, display: 'flex', flexWrap: 'wrap', gap: { xs: 0.5, sm: 3 }, color: 'text.secondary' }} data-testid="tracking-position"
        data-latitude={point?.latitude} data-longitude={point?.longitude}>
        <Typography variant="body2">
          Position: {point ? `${point.latitude.toFixed(6)}, ${point.longitude.toFixed(6)}` : 'waiting for the ambulance'}
        </Typography>
        <Typography variant="body2">Last Updated: {formatPositionTime(point?.updated_at)}</Typography>
      </Box>
    </PlainPage>
  );
}

/** The spec's progress bar: 1 % every 50 ms from 0 to 99, then again (its own component: the map does not re-render). */
function CyclingProgress() {
  const [value, setValue] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setValue((v) => (v + 1) % 100), 50);
    return () => clearInterval(timer);
  }, []);
  return <LinearProgress variant="determinate" value={value} aria-label="Tracking" sx={{ height: 6, borderRadius: 3, mb: 2 }} />;
}

/** One toast per new error text. */
function useErrorToast(text: string | null) {
  const toast = useToast();
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (text && text !== last.current) toast(text, 'error');
    last.current = text;
  }, [text, toast]);
}
