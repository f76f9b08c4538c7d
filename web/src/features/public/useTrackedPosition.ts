import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import type { PositionBatch, TrackResponse } from '../../api/contract';
import { trackedAmbulance } from '../../api/queries';
import { type ConnectionState, openSocket, watchConnection } from '../../realtime/socket';

/** While the socket is down the position is fetched every 5 s (SPEC §9). */
const POLL_MS = 5000;

/** Applies a live batch: the newest position of this ambulance, never an older one than held. */
export function applyPositions(held: TrackResponse | undefined, ambulanceId: string, batch: PositionBatch): TrackResponse | undefined {
  if (!held) return held;
  const mine = batch.positions
    .filter((p) => String(p.ambulanceId) === ambulanceId)
    .sort((a, b) => a.recorded_at.localeCompare(b.recorded_at))
    .at(-1);
  if (!mine) return held;
  if (held.updated_at && held.updated_at > mine.recorded_at) return held;
  return { ...held, latitude: mine.latitude, longitude: mine.longitude, updated_at: mine.recorded_at };
}

/**
 * The ambulance behind a tracking link: first GET /api/track/{id}?t=TOKEN, then live
 * 'ambulance.position' events on a socket opened with the link's token; while that socket
 * is down, polling every 5 s; on reconnect a refetch. Everything stops on leaving.
 */
export function useTrackedPosition(ambulanceId: string, token: string) {
  const qc = useQueryClient();
  const options = trackedAmbulance(ambulanceId, token);
  const [connection, setConnection] = useState<ConnectionState>('connecting');

  const query = useQuery({
    ...options,
    enabled: Boolean(ambulanceId),
    refetchInterval: (q) => {
      // A link the server does not know (or no longer honours) will not come back.
      if (q.state.error instanceof ApiError && q.state.error.status === 404) return false;
      return connection === 'live' ? false : POLL_MS;
    },
  });

  const key = options.queryKey;
  useEffect(() => {
    if (!ambulanceId || !token) return;
    const socket = openSocket({ trackToken: token });
    let connectedBefore = false;
    const stopWatching = watchConnection(socket, (state) => {
      setConnection(state);
      if (state !== 'live') return;
      if (connectedBefore) void qc.invalidateQueries({ queryKey: key });
      connectedBefore = true;
    });
    const onPositions = (batch: PositionBatch) =>
      qc.setQueryData<TrackResponse>(key, (held) => applyPositions(held, ambulanceId, batch));
    socket.on('ambulance.position', onPositions);
    return () => {
      socket.off('ambulance.position', onPositions);
      stopWatching();
      socket.disconnect();
    };
    // `key` is derived from the two ids.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ambulanceId, token, qc]);

  return { query, connection };
}
