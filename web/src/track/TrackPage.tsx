import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { ApiError } from '../api/client';
import { type TrackResponse, arrivalEstimate, arrivalText, formatDistance, isStale } from '../api/contract';
import { useMiniToast } from '../features/public/MiniToast';
import { AlertIcon, PublicHeader } from '../features/public/PublicChrome';
import { linkGone, useTrackedPosition } from '../features/public/useTrackedPosition';
import { formatPositionTime } from '../features/map/positionTime';
import { useNoticeOnce } from '../features/shared/useNoticeOnce';
import { useNow } from '../features/shared/useNow';
import '../features/public/public.css';
import './track.css';
import { type TrackStage, stageHeadline, stageText, trackStage } from './trackStage';

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
  const data = query.data;
  // One state for the whole page: once the call has ended (or the link stopped after it answered), no "on its way", no estimate, no link error.
  const stage = data ? trackStage(data, linkGone(query.error)) : null;
  const ended = stage?.kind === 'ended';
  const active = Boolean(ambulanceId) && query.status === 'success' && !ended;
  const point = data && data.latitude != null && data.longitude != null
    ? { latitude: data.latitude, longitude: data.longitude, updated_at: data.updated_at }
    : null;

  const errorText = !ambulanceId
    ? 'Failed to update location'
    : query.isError && !ended
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
            <p className="ll-track-sub" data-testid="tracking-sub">{data && stage ? stageHeadline(stage, data.license_plate) : 'Follow the ambulance on its way to you.'}</p>
          </div>
          <span data-testid="tracking-badge" className={`ll-badge ${active ? 'll-badge--on' : 'll-badge--off'}`}>
            <span className="ll-badge-dot" aria-hidden />
            {active ? 'Live Tracking Active' : ended ? 'Tracking Ended' : 'Tracking Inactive'}
          </span>
        </div>

        {!ended && <CyclingProgress />}

        {errorText && (
          <div className="ll-status ll-status--error ll-track-error" role="alert" data-testid="tracking-error">
            <AlertIcon className="ll-status-icon" />
            <p className="ll-status-title"><strong>Error:</strong> {errorText}</p>
          </div>
        )}

        {data && stage && <Arrival data={data} stage={stage} />}

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
 * "Arriving in about N min": the contract's one estimate (arrivalEstimate) from the ambulance to
 * where it is going (the patient's shared position, else the location given on the phone) with
 * the server's model, recomputed with every new position; the same minutes as the dispatcher's
 * card. None once the ambulance has arrived, and none after the call has ended.
 */
function Arrival({ data, stage }: { data: TrackResponse; stage: TrackStage }) {
  const { latitude, longitude, destination } = data;
  const ambulance = latitude != null && longitude != null ? { latitude, longitude } : null;
  const estimate = stage.kind === 'coming' ? arrivalEstimate(ambulance, destination, data.eta_model, data.unit_status) : null;
  const now = useNow(30_000);
  const stale = stage.kind === 'coming' && ambulance != null && data.updated_at != null && isStale(data.updated_at, now);

  return (
    <section
      className="ll-track-eta"
      data-testid="tracking-eta"
      data-stage={stage.kind}
      data-minutes={estimate?.minutes}
      data-meters={estimate ? Math.round(estimate.meters) : undefined}
      aria-label="Arrival"
    >
      <span className={`ll-track-eta-dot${estimate || stage.kind === 'arrived' ? ' ll-track-eta-dot--on' : ''}`} aria-hidden />
      <div className="ll-track-eta-text">
        {estimate ? (
          <>
            <p className="ll-track-eta-main">{arrivalText(estimate.minutes)}</p>
            <p className="ll-track-eta-detail">
              {formatDistance(estimate.meters)} away in a straight line{destination?.source === 'intake' ? ' from the location given on the phone' : ''} · an
              estimate for the roads at an average {Math.round(data.eta_model.speed_kmh)} km/h
            </p>
          </>
        ) : stage.kind !== 'coming' ? (
          <p className="ll-track-eta-main" role="status" data-testid="tracking-stage">{stageText(stage)}</p>
        ) : (
          <p className="ll-track-eta-wait">
            {!ambulance ? 'Waiting for the ambulance\'s position.' : 'No arrival estimate yet: the patient\'s location is not known yet.'}
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
