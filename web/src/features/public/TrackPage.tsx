import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ApiError } from '../../api/client';
import { type TrackResponse, distanceMeters, etaMinutes, formatDistance, formatEta, isStale } from '../../api/contract';
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

      {data && <Arrival data={data} />}

      <Paper variant="outlined" sx={{ height: MAP_HEIGHT, overflow: 'hidden', position: 'relative' }}>
        <Suspense fallback={<Box sx={{ height: '100%', bgcolor: '#e3e6ea' }} />}>
          <TrackMap ambulanceId={ambulanceId} point={point} trail={data?.trail} patient={data?.patient} />
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

/**
 * "Arriving in about N min": the straight-line distance from the ambulance to the patient's
 * shared location over the server's average urban speed; recomputed with every new position.
 */
function Arrival({ data }: { data: TrackResponse }) {
  const { patient, latitude, longitude } = data;
  const ambulance = latitude != null && longitude != null ? { latitude, longitude } : null;
  const meters = ambulance && patient ? distanceMeters(ambulance, patient) : null;
  const minutes = meters == null ? null : etaMinutes(meters, data.etaSpeedKmh);
  const now = useNow(30_000);
  const stale = ambulance != null && data.updated_at != null && isStale(data.updated_at, now);

  return (
    <Paper
      variant="outlined"
      data-testid="tracking-eta"
      data-minutes={minutes ?? undefined}
      data-meters={meters == null ? undefined : Math.round(meters)}
      sx={{ mb: 2, px: 2, py: 1.5, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
    >
      <Box sx={{ width: 12, height: 12, borderRadius: '50%', flex: 'none', bgcolor: minutes == null ? 'text.disabled' : 'success.main' }} />
      <Box sx={{ flex: 1, minWidth: 200 }}>
        {minutes != null && Number.isFinite(minutes) ? (
          <>
            <Typography variant="h6" component="p" sx={{ fontWeight: 800, lineHeight: 1.3 }}>{formatEta(minutes)}</Typography>
            <Typography variant="body2" color="text.secondary">
              {formatDistance(meters!)} away in a straight line · an estimate at an average {data.etaSpeedKmh} km/h
            </Typography>
          </>
        ) : (
          <Typography sx={{ fontWeight: 600 }}>
            {!ambulance ? 'Waiting for the ambulance\'s position.' : 'No arrival estimate yet: the patient\'s location has not been shared.'}
          </Typography>
        )}
      </Box>
      {stale && (
        <Chip size="small" color="warning" variant="outlined" label={`Last position ${ageText(data.updated_at, now)} old`} data-testid="tracking-stale" />
      )}
    </Paper>
  );
}

/** The current time, refreshed every `everyMs` (so "stale" shows up on a page left open). */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

function ageText(iso: string | null, now: number): string {
  const min = iso ? Math.floor((now - Date.parse(iso)) / 60_000) : NaN;
  if (!Number.isFinite(min)) return 'unknown';
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
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
