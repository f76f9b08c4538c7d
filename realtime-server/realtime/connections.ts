import { rooms } from '../contract';
import { clientKey, peerIp } from '../edge/clientIp';
import { mayCall } from '../policies/permissions';
import type { ServiceContext } from '../services/context';
import { listenToDriver } from './driverEvents';
import { type LifelineServer, type LifelineSocket, type SocketIdentity, identify, principalOf } from './identity';
import { STAFF_SHARDS, serverRooms } from './rooms';
import { createSocketLimits } from './socketLimits';
import type { Standby } from './standby';

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Who may connect and where each socket listens: the handshake names the socket's identity
 * (a staff session or a tracking/driver link) under the per-link socket cap; a connected socket
 * joins its rooms, gets its event limits and, for a driver link, its inbound events.
 */
export function acceptConnections(io: LifelineServer, ctx: ServiceContext, standby: Standby) {
  const limits = createSocketLimits(
    { eventsPerSecond: ctx.config.limits.socketEventsPerSecond, socketsPerLink: ctx.config.limits.socketsPerLink },
    (socket, report) => ctx.log.warn({ kind: (socket.data as SocketIdentity | undefined)?.kind, refused: report.refused }, 'socket disconnected: it kept sending over its event limit'),
  );

  io.use(async (socket, next) => {
    try {
      const identity = await identify(ctx, socket.handshake.auth ?? {}, clientKey(peerIp(socket.request, ctx.rateLimits.proxies)));
      if (!identity) return next(new Error('unauthorized'));
      if (!mayCall('socket:connect', principalOf(identity))) return next(new Error('unauthorized'));
      if (identity.kind !== 'staff') {
        const refusal = limits.admit(identity.linkKey);
        if (refusal) return next(new Error(refusal));
        // Counted now, not at 'connection': handshakes of one link arriving at once cannot all pass the cap.
        limits.track(socket, identity.linkKey);
      }
      socket.data = identity;
      next();
    } catch (err) {
      ctx.log.error({ err }, 'socket handshake failed');
      next(new Error('unavailable'));
    }
  });

  let nextShard = 0;
  io.on('connection', (socket: LifelineSocket) => {
    const who = socket.data;
    limits.guard(socket, who.kind === 'staff' ? undefined : who.linkKey);
    if (who.kind === 'staff') {
      void socket.join([
        rooms.staff, serverRooms.staffShard(nextShard++ % STAFF_SHARDS), serverRooms.session(who.sessionId), ...(who.role === 'admin' ? [rooms.admins] : []),
      ]);
      // The session ends on its own at expiry: so does the socket.
      const timer = setTimeout(() => socket.disconnect(true), Math.min(MAX_TIMER_MS, Date.parse(who.expiresAt) - Date.now()));
      socket.once('disconnect', () => clearTimeout(timer));
    } else if (who.kind === 'standby') {
      // A driver link whose call ended hears its ambulance's next call and nothing else, until its standby ends.
      const { standby: grant } = who;
      void socket.join(serverRooms.standby(grant.ambulanceId));
      const { endedAssignmentId: _internal, ...told } = grant;
      socket.emit('driver.standby', told);
      void standby.offerTo(socket);
      const timer = setTimeout(() => socket.disconnect(true), Math.min(MAX_TIMER_MS, Math.max(0, Date.parse(grant.until) - Date.now())));
      socket.once('disconnect', () => clearTimeout(timer));
    } else if (who.kind === 'hospital') {
      // A hospital's page hears that what it shows changed, and reads it again over REST (its link checked there).
      void socket.join(rooms.hospital(who.hospitalId));
    } else {
      // A link's holder hears its ambulance's positions and its own case's changes for its role
      // (track.position, track.case: what GET /api/track answers it), nothing else.
      void socket.join([rooms.ambulance(who.ambulanceId), serverRooms.grant(who.caseId), serverRooms.link(who.kind, who.caseId, who.ambulanceId)]);
    }
    listenToDriver(socket, ctx);
  });
}
