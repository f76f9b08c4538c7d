import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { secureEngineResponses, socketOriginAllowed } from '../edge/securityHeaders';
import type { Metrics } from '../metrics';
import type { ServiceContext } from '../services/context';
import type { Cluster } from './cluster';
import { acceptConnections } from './connections';
import { routeEvents } from './eventRouter';
import type { LifelineServer } from './identity';
import { fanOutPositions } from './positionFanout';
import { createStandby } from './standby';

/**
 * Socket.IO on the HTTP server, composed of its three parts: connections (realtime/connections.ts),
 * the bus's events routed to rooms (realtime/eventRouter.ts), and positions fanned out from the
 * cluster's feed (realtime/positionFanout.ts).
 */
export function attachRealtime(httpServer: HttpServer, ctx: ServiceContext, cluster: Cluster, metrics?: Metrics) {
  const io: LifelineServer = new Server(httpServer, {
    ...(cluster.adapter ? { adapter: cluster.adapter } : {}),
    maxHttpBufferSize: 64 * 1024,
    serveClient: false,
    // A browser's handshake must come from an allowed origin (a page elsewhere cannot use a stolen tab's socket).
    allowRequest: (req, callback) => {
      const ok = socketOriginAllowed(req, ctx.config.allowedOrigins);
      if (!ok) ctx.log.warn({ origin: req.headers.origin }, 'socket handshake refused: origin not allowed (ALLOWED_ORIGINS)');
      callback(null, ok);
    },
  });
  secureEngineResponses(httpServer, ctx.config);

  const standby = createStandby(io, ctx, cluster);
  acceptConnections(io, ctx, standby);
  const stopFanout = fanOutPositions(io, cluster, metrics);
  const unsubscribe = ctx.bus.subscribe(routeEvents(io, cluster, metrics, standby));

  return {
    io,
    async close() {
      unsubscribe();
      stopFanout();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
