import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { hospitalPage } from '../../api/queries';
import { type ConnectionState, openSocket, watchConnection } from '../../realtime/socket';
import { DEAD_LINK_STATUSES } from './hospitalPageText';

/**
 * Read every 15 s whatever the socket does: the arrival estimates move with the units' positions,
 * which tell the page nothing (`hospital.changed` comes with a step, a pre-alert or the status);
 * the same reads are the fallback while the socket is down.
 */
export const HOSPITAL_POLL_MS = 15_000;

/** True when the hospital's link answered that it is not (or no longer) valid. */
export const hospitalLinkGone = (error: unknown) => error instanceof ApiError && DEAD_LINK_STATUSES.includes(error.status);

/**
 * A hospital's own page: GET /api/hospital/{id}?t=TOKEN, then read again on its socket's
 * `hospital.changed` (the socket opened with the link: `{hospitalId, hospitalToken}`), on every
 * reconnect and every 15 s. The server ends the socket when the link is replaced or the hospital
 * deleted: the page then reads itself once more (and shows the dead link) or connects again.
 */
export function useHospitalPage(hospitalId: string, token: string) {
  const qc = useQueryClient();
  const [connection, setConnection] = useState<ConnectionState>('connecting');
  const query = useQuery({
    ...hospitalPage(hospitalId, token),
    enabled: Boolean(hospitalId && token),
    refetchInterval: (q) => (hospitalLinkGone(q.state.error) ? false : HOSPITAL_POLL_MS),
    refetchIntervalInBackground: true,
  });

  useEffect(() => {
    const id = Number(hospitalId);
    if (!token || !Number.isSafeInteger(id) || id <= 0) return;
    const key = hospitalPage(hospitalId, token).queryKey;
    const s = openSocket({ hospitalId: id, hospitalToken: token });
    let connectedBefore = false;
    const read = () => void qc.invalidateQueries({ queryKey: key });
    const stopWatching = watchConnection(s, (state) => {
      setConnection(state);
      if (state === 'refused') read();
      if (state !== 'live') return;
      if (connectedBefore) read();
      connectedBefore = true;
    });
    const onChanged = ({ hospital_id }: { hospital_id: number }) => {
      if (hospital_id === id) read();
    };
    const onDisconnect = (reason: string) => {
      if (reason !== 'io server disconnect') return;
      void qc.refetchQueries({ queryKey: key }).then(() => {
        if (!hospitalLinkGone(qc.getQueryState(key)?.error)) s.connect();
      });
    };
    s.on('hospital.changed', onChanged);
    s.on('disconnect', onDisconnect);
    return () => {
      s.off('hospital.changed', onChanged);
      s.off('disconnect', onDisconnect);
      stopWatching();
      s.disconnect();
    };
  }, [hospitalId, token, qc]);

  return { query, connection };
}
