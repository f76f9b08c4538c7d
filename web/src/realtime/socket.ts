import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, SocketAuth } from '../api/contract';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'refused';

/** A typed Socket.IO connection to this origin with the given handshake auth. */
export function openSocket(auth: SocketAuth): LiveSocket {
  return io({ auth, transports: ['websocket', 'polling'], reconnectionDelayMax: 5000 });
}

/** Watches a socket's connection state. */
export function watchConnection(socket: LiveSocket, onChange: (s: ConnectionState) => void): () => void {
  const live = () => onChange('live');
  const lost = () => onChange('reconnecting');
  // A refused handshake (revoked session or link) is final; anything else is retried by socket.io.
  const refused = (err: Error) => onChange(err.message === 'unauthorized' ? 'refused' : 'reconnecting');
  socket.on('connect', live);
  socket.on('disconnect', lost);
  socket.on('connect_error', refused);
  return () => {
    socket.off('connect', live);
    socket.off('disconnect', lost);
    socket.off('connect_error', refused);
  };
}
