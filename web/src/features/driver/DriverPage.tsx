import { type ReactNode, useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { type DriverStandby, type LatLon, type TrackResponse, distanceMeters, formatDistance, isOpenAssignment } from '../../api/contract';
import { playAlertSound } from '../alerts/alertSound';
import type { ConnectionState, LiveSocket } from '../../realtime/socket';
import { AlertIcon, AmbulanceIcon, CheckIcon, ErrorPanel, PinIcon, PublicHeader, StopIcon, formatClock } from '../public/PublicChrome';
import { linkGone, useTrackedPosition } from '../public/useTrackedPosition';
import { capabilityWords, isResponderCar } from '../shared/capabilityWords';
import { CallUnitsCard, CarIcon } from './CallUnitsCard';
import { otherUnits } from './callUnits';
import { pageStorage } from './driverApi';
import { forgetHandoff, isMutedDriver, readHandoff, saveHandoff, setMutedDriver, tabStorage, tokenOfLink } from './driverStandby';
import type { DriverFix } from './positionQueue';
import { StepPanel } from './StepPanel';
import { HospitalCard } from './HospitalCard';
import { useQuery } from '@tanstack/react-query';
import { queries } from '../../api/queries';
import { handoverTargets } from '../../domain/handover';
import { furthest } from './unitSteps';
import { useBackupRequest } from './useBackupRequest';
import { useDriverStream } from './useDriverStream';
import { useUnitPresses } from './useUnitPresses';
import { useWakeLock } from './useWakeLock';
import '../public/public.css';
import './driver.css';

const CLOSED_TEXT = 'This case is closed. Location sharing has stopped.';
const LOAD_FAILED = 'Could not open this driver link. Check your connection and try again.';
const NOT_A_DRIVER_LINK = 'This is a tracking link for watching the ambulance. Open the driver link from the driver\'s e-mail to share the ambulance\'s location.';

/**
 * /driver/{ambulanceId}?t=TOKEN: the ambulance crew's phone shares the ambulance's position
 * for the case it is on, and reports the unit's steps (en route … clear); a step set on the board
 * shows at once. Once the call ends the page waits for the ambulance's next call, and switches to
 * it (`onNewCall`: the route replaces the URL with the new link) with a sound.
 * Plain React and CSS (no MUI, no map): it runs for hours on a phone.
 */
export function DriverPage({ ambulanceId, token, onNewCall }: { ambulanceId: string; token: string; onNewCall?: (ambulanceId: number, token: string) => void }) {
  const { query, connection, socket, standby, offer } = useTrackedPosition(ambulanceId, token, 'driver');
  const data = query.data;
  // The switch that opened this page, if one did: "New call" once, for that call.
  const [handoff] = useState(() => readHandoff(tabStorage(), ambulanceId));
  useEffect(() => { if (handoff) forgetHandoff(tabStorage(), ambulanceId); }, [handoff, ambulanceId]);

  // The ambulance's next call: a sound (unless muted; the page shows the call either way), then its own link.
  useEffect(() => {
    if (!offer || String(offer.ambulanceId) !== ambulanceId) return;
    const next = tokenOfLink(offer.link, offer.ambulanceId);
    if (!next) return;
    if (!isMutedDriver(pageStorage())) playAlertSound(offer.priority);
    saveHandoff(tabStorage(), offer);
    if (onNewCall) onNewCall(offer.ambulanceId, next);
    else window.location.replace(offer.link);
  }, [offer, ambulanceId, onNewCall]);

  let body: ReactNode;
  // The page's heading while it loads is what it loads (axe: page-has-heading-one; every other state has its own).
  const loading = <section className="ll-card" aria-busy aria-labelledby="driver-loading"><span className="ll-spinner ll-spinner--dark" aria-hidden /><h1 id="driver-loading" className="ll-text" style={{ fontWeight: 400 }}>Loading your case...</h1></section>;
  if (!token) {
    body = <Problem title="Tracking link not found or expired" />;
  } else if (standby) {
    // The call is over: one state, waiting for the next one (the old call's details are no longer needed).
    body = <StandbyCard standby={standby} />;
  } else if (!data) {
    // A gone link may still wait for its next call: the socket's handshake says so (or refuses it).
    const mayWait = linkGone(query.error) && (connection === 'connecting' || connection === 'live');
    body = query.isError && !mayWait
      ? <Problem title={(query.error instanceof ApiError && query.error.serverError) || LOAD_FAILED} retry={linkGone(query.error) ? undefined : () => void query.refetch()} />
      : loading;
  } else if (data.role !== 'driver') {
    body = <Problem title={NOT_A_DRIVER_LINK} />;
  } else {
    body = (
      <>
        {handoff?.caseId === data.case.id && <NewCallNote diverted={handoff.diverted} />}
        <DriverConsole
          key={data.case.id}
          ambulanceId={ambulanceId}
          token={token}
          data={data}
          socket={socket}
          connection={connection}
          linkClosed={linkGone(query.error)}
        />
      </>
    );
  }

  return (
    <div className="ll-page">
      <PublicHeader tag="Driver" />
      <main className="ll-main ll-main--driver">{body}</main>
    </div>
  );
}

/** Said once on the page a new call opened: the crew sees at a glance that this is another call. */
function NewCallNote({ diverted }: { diverted: boolean }) {
  const [shown, setShown] = useState(true);
  if (!shown) return null;
  return (
    <section className="ll-card ll-card--left ll-newcall" role="alert" data-testid="driver-new-call">
      <p className="ll-newcall-title" data-testid="driver-new-call-title">{diverted ? 'New call: you were diverted from your previous call' : 'New call'}</p>
      <button type="button" className="ll-button ll-button--secondary" onClick={() => setShown(false)}>OK</button>
    </section>
  );
}

/** Between calls: the job is done (or the unit was taken off it), and the page waits for the ambulance's next call. */
function StandbyCard({ standby }: { standby: DriverStandby }) {
  const [muted, setMuted] = useState(() => isMutedDriver(pageStorage()));
  const toggle = () => {
    setMutedDriver(pageStorage(), !muted);
    setMuted(!muted);
  };
  const done = standby.ended === 'cleared';
  return (
    <section className="ll-card ll-card--left" aria-labelledby="driver-standby-heading" data-testid="driver-standby" data-ended={standby.ended}>
      <div className={`ll-state ${done ? 'll-state--done' : 'll-state--closed'}`} role="status" data-testid="driver-standby-ended">
        {done ? <CheckIcon className="ll-state-icon" /> : <StopIcon className="ll-state-icon" />}
        <p className="ll-state-title">{done ? 'Job done. This ambulance is clear of the call.' : 'The dispatcher took this ambulance off the call.'}</p>
      </div>
      <h1 id="driver-standby-heading" className="ll-title ll-title--small ll-standby-title">Waiting for the next call</h1>
      <p className="ll-text ll-standby-text" data-testid="driver-standby-text">
        Ambulance {standby.license_plate}: keep this page open. The next call for this ambulance shows here at once, with a sound.
      </p>
      <p className="ll-muted" data-testid="driver-status" data-state="closed">Location sharing has stopped.</p>
      <p className="ll-muted">Previous call {standby.caseId.slice(0, 8)} · this page waits until {formatClock(standby.until)}</p>
      <button type="button" className="ll-button ll-button--secondary" onClick={toggle} data-testid="driver-sound">
        {muted ? 'Sound is off: turn it on' : 'Mute the new-call sound'}
      </button>
    </section>
  );
}

function Problem({ title, retry }: { title: string; retry?: () => void }) {
  return (
    <section className="ll-card" role="alert" data-testid="driver-error">
      <AlertIcon className="ll-hero-icon ll-hero-icon--error" />
      <h1 className="ll-title ll-title--small">Error: {title}</h1>
      {retry && <button type="button" className="ll-button ll-button--secondary" onClick={retry}>Try Again</button>}
    </section>
  );
}

interface ConsoleProps {
  ambulanceId: string;
  token: string;
  data: TrackResponse;
  socket: LiveSocket | null;
  connection: ConnectionState;
  linkClosed: boolean;
}

function DriverConsole({ ambulanceId, token, data, socket, connection, linkClosed }: ConsoleProps) {
  const { press, ...presses } = useUnitPresses({ ambulanceId, token, caseId: data.case.id, socket, linkClosed });
  // Clear resolves the case and revokes the link: sharing ends with it.
  const jobDone = presses.acked?.status === 'cleared';
  const stream = useDriverStream({ ambulanceId, token, caseId: data.case.id, socket, linkClosed: linkClosed || jobDone });
  const { phase, lastFix, lastSent, pending, problem, noFix } = stream;
  const sharing = phase.kind === 'sharing';
  const closed = phase.kind === 'closed';
  const wakeLock = useWakeLock(sharing);
  const backup = useBackupRequest({ ambulanceId, token, socket });
  const config = useQuery(queries.config()).data;
  // Backup is asked for while this unit is on the call: not once it cleared, was stood down, or the link closed.
  const own = furthest(data.assignment, presses.acked);
  const onCall = own != null && isOpenAssignment(own.status) && !jobDone && !closed && !linkClosed && !presses.closed;
  const capability = own?.capability;

  const ambulance = ambulanceNow(data, lastFix);
  const patient = data.patient;
  // Before the patient shares a fix, the crew drives to the location taken on the phone.
  const given = patient ? null : (data.destination ?? null);
  const target = patient ?? given;
  const distance = ambulance && target ? distanceMeters(ambulance, target) : null;

  return (
    <>
      {data.assignment !== undefined && <StepPanel data={data} presses={presses} press={press} linkClosed={linkClosed || closed} />}
      {onCall && own && (
        <HospitalCard
          ambulanceId={ambulanceId}
          token={token}
          assignment={own}
          needs={data.hospital_needs ?? []}
          from={ambulance ?? target}
          handoverTargets={handoverTargets(config)}
        />
      )}
      {onCall && <CallUnitsCard units={otherUnits(data.units)} backup={backup} />}
      <section className="ll-card ll-card--left" aria-labelledby="driver-heading">
        <div className="ll-driver-title">
          {isResponderCar(capability) ? <CarIcon className="ll-driver-title-icon" /> : <AmbulanceIcon className="ll-driver-title-icon" />}
          <div>
            <h1 id="driver-heading" className="ll-title ll-title--small">Ambulance {data.license_plate}</h1>
            <p className="ll-muted">
              {capability && <span data-testid="driver-capability">{capabilityWords(capability)} · </span>}
              Case {data.case.id.slice(0, 8)}{closed ? ' · closed' : ''}
            </p>
          </div>
        </div>
        <dl className="ll-facts" data-testid="driver-case">
          <dt>Patient</dt>
          <dd data-testid="driver-patient">{data.case.patientName || 'Unknown Patient'}</dd>
          <dt>Emergency</dt>
          <dd>{data.case.description || 'No description provided'}</dd>
          <dt>Patient location</dt>
          <dd data-testid="driver-patient-location" data-latitude={patient?.latitude} data-longitude={patient?.longitude}>
            {patient
              ? <>{patient.latitude.toFixed(5)}, {patient.longitude.toFixed(5)}<span className="ll-muted"> · shared {formatClock(patient.updated_at)}{patient.accuracy != null ? ` · ±${Math.round(patient.accuracy)} m` : ''}</span></>
              : given
                ? <span data-testid="driver-address-given">{given.address ?? `${given.latitude.toFixed(5)}, ${given.longitude.toFixed(5)}`}<span className="ll-muted"> · address given on the phone; not shared yet</span></span>
                : <span className="ll-muted">Not shared yet</span>}
          </dd>
          <dt>Distance</dt>
          <dd data-testid="driver-distance" data-meters={distance == null ? undefined : Math.round(distance)}>
            {distance == null
              ? <span className="ll-muted">{target ? 'Waiting for the ambulance\'s position' : 'Known once the patient shares a location'}</span>
              : <><strong>{formatDistance(distance)}</strong><span className="ll-muted"> straight line</span></>}
          </dd>
        </dl>
        {target && (
          <a className="ll-link-button" href={`https://www.openstreetmap.org/?mlat=${target.latitude}&mlon=${target.longitude}#map=18/${target.latitude}/${target.longitude}`} target="_blank" rel="noopener noreferrer">
            <PinIcon className="ll-button-icon" /> {patient ? 'Open the patient\'s location in a map' : 'Open the address given in a map'}
          </a>
        )}
      </section>

      <section className="ll-card ll-share" aria-live="polite">
        {closed ? (
          <div className="ll-state ll-state--closed" role="status" data-testid="driver-status" data-state="closed">
            <StopIcon className="ll-state-icon" />
            <p className="ll-state-title">{CLOSED_TEXT}</p>
          </div>
        ) : sharing ? (
          <>
            <div className="ll-state ll-state--live" role="status" data-testid="driver-status" data-state="sharing">
              <span className="ll-pulse" aria-hidden />
              <p className="ll-state-title">Sharing location</p>
            </div>
            <dl className="ll-facts ll-facts--compact">
              <dt>Last sent</dt>
              <dd data-testid="driver-last-sent" data-at={lastSent?.at}>{lastSent ? formatClock(lastSent.at) : 'Not yet'}</dd>
              <dt>Accuracy</dt>
              <dd data-testid="driver-accuracy">{lastFix?.accuracy != null ? `±${Math.round(lastFix.accuracy)} m` : 'Unknown'}</dd>
              <dt>Connection</dt>
              <dd data-testid="driver-connection">{connectionText(connection, pending)}</dd>
            </dl>
            {wakeLock === 'on' && <p className="ll-note ll-note--tight">Screen stays on. Keep this page open while driving.</p>}
            {wakeLock !== 'on' && <p className="ll-note ll-note--tight">Keep this page open while driving.</p>}
            <button type="button" className="ll-button ll-button--secondary" onClick={stream.stop}>Stop sharing</button>
          </>
        ) : (
          <>
            <button type="button" className="ll-button ll-button--big" onClick={stream.start} disabled={phase.kind === 'locating'} aria-busy={phase.kind === 'locating'}>
              {phase.kind === 'locating' ? <span className="ll-spinner" aria-hidden /> : <PinIcon className="ll-button-icon" />}
              {phase.kind === 'locating' ? 'Getting your location...' : 'Start sharing location'}
            </button>
            <p className="ll-note ll-note--tight">
              The ambulance's position goes to the dispatcher and the patient while this page is open.
            </p>
            {lastSent && phase.kind === 'idle' && (
              <p className="ll-muted" data-testid="driver-last-sent" data-at={lastSent.at}>Sharing stopped. Last sent {formatClock(lastSent.at)}.</p>
            )}
          </>
        )}
        {phase.kind === 'error' && <ErrorPanel message={phase.message} hint={phase.hint} testId="driver-geo-error" />}
        {!closed && pending > 0 && (
          <p className="ll-queue" data-testid="driver-queue">
            {pending === 1 ? '1 position' : `${pending} positions`} waiting to be sent; they go in order once the connection is back.
          </p>
        )}
        {!closed && problem && <p className="ll-problem" data-testid="driver-problem">{problem}</p>}
        {sharing && noFix && <p className="ll-queue" data-testid="driver-no-fix">Waiting for a GPS fix… Keep the phone where it can see the sky.</p>}
        {sharing && lastSent && !problem && pending === 0 && (
          <p className="ll-ok"><CheckIcon className="ll-ok-icon" /> The dispatcher sees the ambulance move.</p>
        )}
      </section>
    </>
  );
}

/** Where the ambulance is: this phone's last fix, or the server's position when that is newer (or there is no fix). */
function ambulanceNow(data: TrackResponse, fix: DriverFix | null): LatLon | null {
  const server = data.latitude != null && data.longitude != null ? { latitude: data.latitude, longitude: data.longitude } : null;
  if (!fix) return server;
  if (server && data.updated_at && fix.timestamp !== undefined && Date.parse(data.updated_at) > fix.timestamp) return server;
  return fix;
}

function connectionText(connection: ConnectionState, pending: number): string {
  if (pending > 0 && connection !== 'live') return 'Offline: positions are kept on this phone';
  if (connection === 'live') return 'Live';
  return 'Reconnecting (sending over the network)';
}
