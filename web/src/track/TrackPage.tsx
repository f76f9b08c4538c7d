import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { ApiError } from '../api/client';
import { type TrackResponse, distanceMeters, etaMinutes, formatDistance, formatEta, isStale } from '../api/contract';
import { useMiniToast } from '../features/public/MiniToast';
import { AlertIcon, PublicHeader } from '../features/public/PublicChrome';
import { useTrackedPosition } from '../features/public/useTrackedPosition';
import { formatPositionTime } from '../features/map/positionTime';
import { useNoticeOnce } from '../features/shared/useNoticeOnce';
import { useNow } from '../features/shared/useNow';
import '../features/public/public.css';
import './track.css';

// Leaflet is most of this page's weight: it loads after the heading, the badge and the arrival line show.
const TrackMap = lazy(() => import('../features/map/TrackMap').then((m) => ({ default: m.TrackMap })));

/**
 * /track/{ambulanceId}?t=TOKEN: anyone holding the tracking link watches the ambulance
 * come. Active once there is an ambulance id and the link answers. Plain markup and CSS (no
 * MUI, no router), so a weak phone shows it quickly: its own entry (src/track/main.tsx, on
 * Preact's React API), and the SPA's /track route when a build has no track.html.
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
  const { show, view: toastView } = useMiniToast();
  // One toast per new error text; the toast itself never stacks a twin (useMiniToast).
  const showError = useCallback((text: string) => show(text, 'error'), [show]);
  useNoticeOnce(errorText, errorText, showError);

  return (
    <div className="ll-page">
      <PublicHeader />
      <main className="ll-main ll-track">
        <div className="ll-track-head">
          <div>
            <h1 className="ll-track-title">Ambulance Tracking</h1>
            <p className="ll-track-sub">{data ? `Ambulance ${data.license_plate} is on its way.` : 'Follow the ambulance on its way to you.'}</p>
          </div>
          <span data-testid="tracking-badge" className={`ll-badge ${active ? 'll-badge--on' : 'll-badge--off'}`}>
            <span className="ll-badge-dot" aria-hidden />
            {active ? 'Live Tracking Active' : 'Tracking Inactive'}
          </span>
        </div>

        <CyclingProgress />

        {errorText && (
          <div className="ll-status ll-status--error ll-track-error" role="alert" data-testid="tracking-error">
            <AlertIcon className="ll-status-icon" />
            <p className="ll-status-title"><strong>Error:</strong> {errorText}</p>
          </div>
        )}

        {data && <Arrival data={data} />}

        <div className="ll-track-map">
          <Suspense fallback={<div className="ll-track-map-waiting" />}>
            <TrackMap ambulanceId={ambulanceId} point={point} trail={data?.trail} patient={data?.patient} />
          </Suspense>
        </div>

        <div className="ll-track-position" data-testid="tracking-position" data-latitude={point?.latitude} data-longitude={point?.longitude}>
          <p>Position: {point ? `${point.latitude.toFixed(6)}, ${point.longitude.toFixed(6)}` : 'waiting for the ambulance'}</p>
          <p>Last Updated: {formatPositionTime(point?.updated_at)}</p>
        </div>
      </main>
      {toastView}
    </div>
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
  const known = minutes != null && Number.isFinite(minutes);

  return (
    <section
      className="ll-track-eta"
      data-testid="tracking-eta"
      data-minutes={minutes ?? undefined}
      data-meters={meters == null ? undefined : Math.round(meters)}
      aria-label="Arrival"
    >
      <span className={`ll-track-eta-dot${known ? ' ll-track-eta-dot--on' : ''}`} aria-hidden />
      <div className="ll-track-eta-text">
        {known ? (
          <>
            <p className="ll-track-eta-main">{formatEta(minutes)}</p>
            <p className="ll-track-eta-detail">
              {formatDistance(meters!)} away in a straight line · an estimate at an average {data.etaSpeedKmh} km/h
            </p>
          </>
        ) : (
          <p className="ll-track-eta-wait">
            {!ambulance ? 'Waiting for the ambulance\'s position.' : 'No arrival estimate yet: the patient\'s location has not been shared.'}
          </p>
        )}
      </div>
      {stale && <span className="ll-track-stale" data-testid="tracking-stale">{`Last position ${ageText(data.updated_at, now)} old`}</span>}
    </section>
  );
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
  return (
    <div className="ll-progress" role="progressbar" aria-label="Tracking" aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <div className="ll-progress-bar" style={{ transform: `translateX(${value - 100}%)` }} />
    </div>
  );
}
