import type { ServiceContext } from '../services/context';
import { trackingService } from '../services/trackingService';
import type { Cluster } from './cluster';
import type { LifelineServer, LifelineSocket } from './identity';
import { serverRooms } from './rooms';

/**
 * The driver link's standby (policies/links.ts standbyUntil has the rule): a driver link whose call
 * ended keeps a socket in its ambulance's standby room, and when that ambulance is dispatched again
 * the socket is offered the new call: `driver.dispatched` with a driver link of its own for it, minted
 * on the node that holds the socket (a token never crosses the cluster). It hears nothing else.
 * Offered at connect too, so a page that reconnects after the dispatch (a diverted unit's page is
 * disconnected in the same commit that gives it the new call) still gets it. One offer per socket and
 * assignment: a call's later updates offer nothing more.
 */
export function createStandby(io: LifelineServer, ctx: ServiceContext, cluster: Cluster) {
  /** Each socket's offers run one after another (two events of one dispatch must not mint twice). */
  const queue = new WeakMap<LifelineSocket, Promise<void>>();

  async function offerNow(socket: LifelineSocket) {
    const who = socket.data;
    if (who.kind !== 'standby' || !socket.connected || Date.parse(who.standby.until) <= Date.now()) return;
    const offer = await trackingService.handOver(ctx, who.standby, who.offered);
    if (!offer) return;
    who.offered = offer.assignmentId;
    socket.emit('driver.dispatched', offer.dispatched);
  }

  /** Offers the ambulance's current call to one waiting socket, if it has a new one. */
  function offerTo(socket: LifelineSocket): Promise<void> {
    const next = (queue.get(socket) ?? Promise.resolve()).then(() => offerNow(socket)).catch((err: unknown) => {
      ctx.log.error({ err }, 'offering the next call to a waiting driver link failed');
    });
    queue.set(socket, next);
    return next;
  }

  /** This node's waiting sockets of the ambulance. */
  function offerLocal(ambulanceId: number) {
    const nsp = io.of('/');
    for (const id of nsp.adapter.rooms.get(serverRooms.standby(ambulanceId)) ?? []) {
      const socket = nsp.sockets.get(id);
      if (socket) void offerTo(socket);
    }
  }

  if (cluster.adapter) io.on('standby.offer', offerLocal);

  return {
    offerTo,
    /** The ambulance was dispatched: every node offers the call to its own waiting sockets. */
    offer(ambulanceId: number) {
      offerLocal(ambulanceId);
      if (cluster.adapter) io.serverSideEmit('standby.offer', ambulanceId);
    },
  };
}

export type Standby = ReturnType<typeof createStandby>;
