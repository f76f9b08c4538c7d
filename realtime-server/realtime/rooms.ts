/** The rooms the server uses besides the contract's (clients never name these). */
export const serverRooms = {
  /** A staff session's sockets: disconnected when the session is revoked. */
  session: (id: number) => `session:${id}`,
  /** Sockets holding a case's tracking links; used only to disconnect them. */
  grant: (caseId: string) => `grant:${caseId}`,
  /** A link's sockets on one case and ambulance, per role: they hear `track.case` (the driver's with its assignment). */
  link: (role: 'viewer' | 'driver', caseId: string, ambulanceId: number) => `${role}:${caseId}:${ambulanceId}`,
  /** Driver links whose call ended, waiting for their ambulance's next call (realtime/standby.ts). */
  standby: (ambulanceId: number) => `standby:${ambulanceId}`,
  /** One of the STAFF_SHARDS rooms every staff socket also joins (realtime/positionFanout.ts). */
  staffShard: (i: number) => `staff#${i}`,
};

/**
 * Staff sockets are also spread over this many shard rooms, and a tick's batch goes out one
 * shard per event-loop turn: hundreds of boards × tens of KB written in one go would stall
 * the loop, and with it every tracking page's position and every driver's ack.
 */
export const STAFF_SHARDS = 8;
