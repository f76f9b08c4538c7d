import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { type ClientToServerEvents, type ServerToClientEvents, positionSchema, rooms } from '../contract';
import { linkPolicy } from '../policies/links';
import { type Principal, mayCall } from '../policies/permissions';
import { clientKey, peerIp } from '../http/middleware/clientIp';
import { type LinkCounter, linkCallRefusal, linkCounter } from '../http/middleware/rateLimit';
import { secureEngineResponses, socketOriginAllowed } from '../http/middleware/security';
import { authService } from '../services/authService';
import { ambulanceService } from '../services/ambulanceService';
import type { ServiceContext } from '../services/context';
import { DomainError } from '../services/errors';
import { hashToken } from '../services/tokens';
import { trackingService } from '../services/trackingService';
import type { Metrics } from '../metrics';
import type { Cluster, FeedPosition } from './cluster';
import type { DomainEvent } from './eventBus';
import { PositionCoalescer } from './positionCoalescer';
import { createSocketLimits } from './socketLimits';

/** Who a socket is, decided once at the handshake. */
export type SocketIdentity =
  | { kind: 'staff'; userId: number; role: 'admin' | 'operator'; sessionId: number; expiresAt: string }
  /** `linkKey` names the link (its hashed token) for the per-link socket cap; `counter` is what its calls count under. */
  | { kind: 'viewer' | 'driver'; ambulanceId: number; caseId: string; linkKey: string; counter: LinkCounter };

type LifelineSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketIdentity>;

/** The socket's principal in policies/permissions.ts `access`. */
const principalOf = (who: SocketIdentity): Principal => (who.kind === 'staff' ? who.role : who.kind);

const sessionRoom = (id: number) => `session:${id}`;
/** Sockets holding a case's tracking links; used only to disconnect them. */
const grantRoom = (caseId: string) => `grant:${caseId}`;
const MAX_TIMER_MS = 2 ** 31 - 1;

async function identify(ctx: ServiceContext, auth: Record<string, unknown>, client: string): Promise<SocketIdentity | undefined> {
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : undefined);
  const token = str(auth.token);
  if (token) {
    const p = await authService.authenticate(ctx, token);
    return p && { kind: 'staff', userId: p.user.id, role: p.user.role, sessionId: p.session.id, expiresAt: p.session.expires_at };
  }
  for (const kind of ['trackToken', 'driverToken'] as const) {
    const t = str(auth[kind]);
    if (!t) continue;
    const grant = await trackingService.resolveGrant(ctx, t);
    const wanted = kind === 'trackToken' ? 'viewer' : 'driver';
    // The link's calls are counted under the same keys as its REST calls from this client.
    return linkPolicy.connectsAs(grant, wanted)
      ? { kind: wanted, ambulanceId: grant.ambulance_id, caseId: grant.case_id, linkKey: hashToken(t), counter: linkCounter(`${wanted}:${t}`, client, { publicCaller: true }) }
      : undefined;
  }
  return undefined;
}

/** How often the `staff` room gets its batch of the latest positions (SPEC: at most once a second). */
export const STAFF_POSITION_TICK_MS = 1000;
/**
 * Staff sockets are also spread over this many shard rooms, and a tick's batch goes out one
 * shard per event-loop turn: hundreds of boards × tens of KB written in one go would stall
 * the loop, and with it every tracking page's position and every driver's ack.
 */
const STAFF_SHARDS = 8;
const staffShard = (i: number) => `staff#${i}`;

/**
 * Socket.IO on the HTTP server: handshake auth, rooms, events after commit, coalesced positions.
 * State changes go to rooms through the adapter (every node's sockets when clustered);
 * positions come from the cluster's position feed and go to this node's own sockets.
 */
export function attachRealtime(httpServer: HttpServer, ctx: ServiceContext, cluster: Cluster, metrics?: Metrics) {
  const io = new Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketIdentity>(httpServer, {
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

  const limits = createSocketLimits(
    { eventsPerSecond: ctx.config.limits.socketEventsPerSecond, socketsPerLink: ctx.config.limits.socketsPerLink },
    (socket, report) => ctx.log.warn({ kind: (socket.data as SocketIdentity | undefined)?.kind, refused: report.refused }, 'socket disconnected: it kept sending over its event limit'),
  );

  io.use(async (socket, next) => {
    try {
      const identity = await identify(ctx, (socket.handshake.auth ?? {}) as Record<string, unknown>, clientKey(peerIp(socket.request, ctx.config)));
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
      socket.join([rooms.staff, staffShard(nextShard++ % STAFF_SHARDS), sessionRoom(who.sessionId), ...(who.role === 'admin' ? [rooms.admins] : [])]);
      // The session ends on its own at expiry: so does the socket.
      const timer = setTimeout(() => socket.disconnect(true), Math.min(MAX_TIMER_MS, Date.parse(who.expiresAt) - Date.now()));
      socket.once('disconnect', () => clearTimeout(timer));
    } else {
      // A link's holder hears its ambulance's positions and its case's patient location, nothing else.
      socket.join([rooms.ambulance(who.ambulanceId), rooms.case(who.caseId), grantRoom(who.caseId)]);
    }

    socket.on('ambulance.position', async (raw, ack) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      // The table admits driver links only (`who.kind === 'staff'` narrows the type for what follows).
      if (!mayCall('socket:ambulance.position', principalOf(who)) || who.kind === 'staff') return reply({ ok: false, error: 'Only a driver link may send positions' });
      const parsed = positionSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reply({ ok: false, error: `${issue.path.join('.') || 'position'}: ${issue.message}` });
      }
      const refusal = await linkCallRefusal(ctx, who.counter);
      if (refusal) return reply({ ok: false, error: refusal });
      try {
        reply(await ambulanceService.recordPosition(ctx, who.ambulanceId, parsed.data, { type: 'driver', caseId: who.caseId }));
      } catch (err) {
        if (err instanceof DomainError) return reply({ ok: false, error: err.message });
        ctx.log.error({ err }, 'position from driver socket failed');
        reply({ ok: false, error: 'Internal server error' });
      }
    });
  });

  // Each node sends positions to its own sockets only: a room hears each position once, however many nodes there are.
  const staffPositions = new PositionCoalescer<FeedPosition>(STAFF_POSITION_TICK_MS, (batch) => {
    const payload = { positions: batch.map((b) => b.position) };
    const send = (shard: number) => {
      io.local.to(staffShard(shard)).volatile.emit('ambulance.position', payload);
      if (shard + 1 < STAFF_SHARDS) setImmediate(send, shard + 1);
      else for (const b of batch) metrics?.delivered('staff', b.at);
    };
    send(0);
    metrics?.emitted('ambulance.position');
  });
  const stopFeed = cluster.onPosition((p) => {
    staffPositions.add(p);
    // Not volatile: a tracking page gets every position (a burst must not lose fixes); staff batches may skip a tick.
    io.local.to(rooms.ambulance(p.position.ambulanceId)).emit('ambulance.position', { positions: [p.position] });
    metrics?.emitted('ambulance.position');
    metrics?.delivered('ambulance', p.at);
  });

  const route = (e: DomainEvent) => {
    if (e.type !== 'ambulance.position' && e.type !== 'mail.queued') metrics?.emitted(e.type);
    switch (e.type) {
      // Whole cases only to staff; a case room (link holders) gets only its location.
      case 'case.created':
      case 'case.updated':
        return io.to(rooms.staff).emit(e.type, e.case);
      case 'case.deleted':
        return io.to(rooms.staff).emit(e.type, { id: e.id });
      case 'case.location':
        return io.to(rooms.staff).to(rooms.case(e.location.id)).emit(e.type, e.location);
      case 'ambulance.created':
      case 'ambulance.updated':
        return io.to(rooms.staff).emit(e.type, e.ambulance);
      case 'ambulance.deleted':
        return io.to(rooms.staff).emit(e.type, { id: e.id });
      case 'ambulance.position':
        return cluster.publishPosition(e.position);
      case 'user.created':
      case 'user.updated':
        return io.to(rooms.admins).emit(e.type, e.user);
      case 'user.deleted':
        return io.to(rooms.admins).emit(e.type, { id: e.id });
      case 'sessions.revoked':
        for (const id of e.sessionIds) io.in(sessionRoom(id)).disconnectSockets(true);
        return;
      case 'grants.revoked':
        return io.in(grantRoom(e.caseId)).disconnectSockets(true);
      case 'mail.queued':
        return;
    }
  };
  const unsubscribe = ctx.bus.subscribe(route);

  return {
    io,
    async close() {
      unsubscribe();
      stopFeed();
      staffPositions.stop();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
