import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import {
  type DriverDispatched, type DriverStandby, type LinkRole, type TrackCaseUpdate, type TrackPositionBatch, type TrackResponse, recentTrail,
} from '../../api/contract';
import { trackedAmbulance } from '../../api/queries';
import { type ConnectionState, type LiveSocket, openSocket, watchConnection } from '../../realtime/socket';

/** While the socket is down the position is fetched every 5 s (SPEC §9). */
const POLL_MS = 5000;

/**
 * Applies a live batch: this ambulance's positions newer than the one held move it (the
 * newest wins) and extend its trail, in time order, within the contract's trail bounds; older
 * ones and other ambulances' are dropped.
 */
export function applyPositions(held: TrackResponse | undefined, ambulanceId: string, batch: TrackPositionBatch): TrackResponse | undefined {
  if (!held) return held;
  const fresh = batch.positions
    .filter((p) => String(p.ambulanceId) === ambulanceId && !(held.updated_at && held.updated_at >= p.recorded_at))
    .sort((a, b) => a.recorded_at.localeCompare(b.recorded_at));
  const newest = fresh.at(-1);
  if (!newest) return held;
  const trail = recentTrail([...held.trail, ...fresh.map((p) => ({ latitude: p.latitude, longitude: p.longitude, recorded_at: p.recorded_at }))]);
  return {
    ...held,
    latitude: newest.latitude,
    longitude: newest.longitude,
    updated_at: newest.recorded_at,
    trail,
  };
}

/**
 * Applies `track.case`: the link's own case as it changed (its words, state, the patient's shared
 * position, the unit's step, the destination; the driver's also its priority, assignment and the
 * call's other units). Another case's or ambulance's is ignored.
 */
export function applyTrackCase(held: TrackResponse | undefined, update: TrackCaseUpdate): TrackResponse | undefined {
  if (!held || update.case.id !== held.case.id || update.ambulanceId !== held.ambulanceId) return held;
  return {
    ...held,
    case: update.case,
    patient: update.patient,
    unit_status: update.unit_status,
    destination: update.destination,
    ...(update.priority !== undefined ? { priority: update.priority } : {}),
    ...(update.assignment !== undefined ? { assignment: update.assignment } : {}),
    ...(update.units !== undefined ? { units: update.units } : {}),
  };
}

/** True when the tracking link answered that it is not (or no longer) valid. */
export const linkGone = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * The ambulance behind a tracking link (the patient's viewer link or the driver's link):
 * first GET /api/track/{id}?t=TOKEN, then live 'track.position' and 'track.case' events (the
 * same presenter's fields, server presenters/presentTrack.ts) on a socket opened with the link's token (a step set on the board reaches
 * the page at its commit); while that socket is down, polling every 5 s; on reconnect, or when
 * the server drops or refuses the socket (a closed case), a refetch. A driver link whose call
 * ended connects again: the server lets it wait for its ambulance's next call or refuses it
 * (useDriverStandby). Everything stops on leaving.
 */
export function useTrackedPosition(ambulanceId: string, token: string, as: LinkRole = 'viewer') {
  const qc = useQueryClient();
  const options = trackedAmbulance(ambulanceId, token);
  const [connection, setConnection] = useState<ConnectionState>('connecting');
  const [socket, setSocket] = useState<LiveSocket | null>(null);
  // A driver link whose call ended: what the server says of its wait, and the next call it offers (heard from the socket's first event on).
  const [standby, setStandby] = useState<DriverStandby | null>(null);
  const [offer, setOffer] = useState<DriverDispatched | null>(null);

  const query = useQuery({
    ...options,
    enabled: Boolean(ambulanceId),
    refetchInterval: (q) => {
      // A link the server does not know (or no longer honours) will not come back.
      if (linkGone(q.state.error)) return false;
      return connection === 'live' ? false : POLL_MS;
    },
  });

  useEffect(() => {
    if (!ambulanceId || !token) return;
    const key = trackedAmbulance(ambulanceId, token).queryKey;
    const s = openSocket(as === 'driver' ? { driverToken: token } : { trackToken: token });
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the value is the resource this effect just created, not derived from render data
    setSocket(s);
    let connectedBefore = false;
    const check = () => void qc.invalidateQueries({ queryKey: key });
    const stopWatching = watchConnection(s, (state) => {
      setConnection(state);
      if (state === 'refused') check();
      if (state !== 'live') return;
      if (connectedBefore) check();
      connectedBefore = true;
    });
    // The server ends a link's socket when its case closes: the link then answers 404.
    // Any other server-side end is retried (socket.io does not reconnect on its own then).
    const onDisconnect = (reason: string) => {
      if (reason !== 'io server disconnect') return;
      void qc.refetchQueries({ queryKey: key }).then(() => {
        // A gone driver link tries once more: as a link waiting for its next call, or refused for good.
        if (as === 'driver' || !linkGone(qc.getQueryState(key)?.error)) s.connect();
      });
    };
    const onPositions = (batch: TrackPositionBatch) =>
      qc.setQueryData<TrackResponse>(key, (held) => applyPositions(held, ambulanceId, batch));
    const onTrackCase = (update: TrackCaseUpdate) =>
      qc.setQueryData<TrackResponse>(key, (held) => applyTrackCase(held, update));
    s.on('disconnect', onDisconnect);
    s.on('track.position', onPositions);
    s.on('track.case', onTrackCase);
    s.on('driver.standby', setStandby);
    s.on('driver.dispatched', setOffer);
    return () => {
      s.off('disconnect', onDisconnect);
      s.off('track.position', onPositions);
      s.off('track.case', onTrackCase);
      s.off('driver.standby', setStandby);
      s.off('driver.dispatched', setOffer);
      stopWatching();
      s.disconnect();
      setSocket(null);
    };
  }, [ambulanceId, token, as, qc]);

  return { query, connection, socket, standby, offer };
}
