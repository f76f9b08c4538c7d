import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { RateLimits } from '../edge/rateLimits';
import type { Metrics } from '../metrics';
import type { Principal } from './authService';
import type { Clock } from './clock';
import type { DomainEvent, EventBus } from './events';
import type { PositionWriter } from './positionWriter';
import type { PrincipalCache } from './principalCache';
import type { ReportGate } from './reportGate';
import type { StorageHealth } from './storageHealth';

/**
 * The node's long-lived parts, each built once per server (services/serviceContext.ts): the
 * database, the bus, config and a logger; Redis when several nodes run; the position writer,
 * the limits and the caches. Nothing in it belongs to one request.
 */
export interface NodeContext {
  db: Knex;
  bus: EventBus;
  config: Config;
  log: Logger;
  /** This server among the cluster's nodes (random per start): the cluster feed, idempotency claims, the outbox lease and the health probe name it. */
  nodeId: string;
  /** The cluster's command connection (REDIS_URL): shared counters such as rate limits. */
  redis?: Redis;
  metrics?: Metrics;
  /** The server's time where a service reads it (the board's window of ended calls); a test moves it. Default: the system clock. */
  clock?: Clock;
  /** Set when the node begins to shut down: health answers 503 so a load balancer sends no more. */
  lifecycle: { draining: boolean };
  /** Whether the database takes writes (health answers 503 while it does not); `writeFailed(err)` records a failure knex did not see. */
  storageHealth: StorageHealth;
  /** The group commit of positions. */
  positions: PositionWriter;
  /** Who a bearer token is, remembered for a moment. */
  principals: PrincipalCache<Principal>;
  /** Sign-in and link counters, shared by REST and sockets. */
  rateLimits: RateLimits;
  /** This node's report slots (REPORT_CONCURRENCY, REPORT_QUEUE, REPORT_PER_USER). */
  reports: ReportGate;
}

/**
 * What a service is called with: the node's parts, and for one keyed request the hook on its
 * write (http/middleware/idempotency.ts `keyedWrite` adds it to a copy; the node's own context
 * never holds one).
 */
export interface ServiceContext extends NodeContext {
  /** The caller's hook on the service's transaction: the keyed request's answer, stored with the write. */
  writeHook?: WriteHook;
}

/** What a caller adds to a service's write: run by `inTransaction`. */
export interface WriteHook {
  /** In the service's transaction, with the work's result, before the commit: it commits or rolls back with the write. */
  alsoWrite(trx: Knex.Transaction, result: unknown): Promise<void>;
  /** Once that transaction has committed. */
  onCommit(): void;
}

/** Who is acting, as recorded on the case timeline. */
export type Actor = { type: 'user'; id: number; role: 'admin' | 'operator' } | { type: 'patient' } | { type: 'driver' } | { type: 'system' }
  /** A hospital's own page (its link), by the hospital's id. */
  | { type: 'hospital'; id: number };

/** How a timeline entry names who acted: a staff member or a hospital by id, anyone else by kind. */
export const timelineActor = (a: Actor) => (a.type === 'user' || a.type === 'hospital' ? { type: a.type, id: a.id } : { type: a.type });

/**
 * Runs `work` in one transaction, then the caller's `writeHook.alsoWrite` in that same
 * transaction; the events it records are published only after the commit, so no client ever
 * hears of a write that was rolled back.
 */
export async function inTransaction<T>(
  ctx: Pick<ServiceContext, 'db' | 'bus' | 'writeHook'>,
  work: (trx: Knex.Transaction, record: (e: DomainEvent) => void) => Promise<T>,
): Promise<T> {
  const events: DomainEvent[] = [];
  const result = await ctx.db.transaction(async (trx) => {
    const r = await work(trx, (e) => events.push(e));
    await ctx.writeHook?.alsoWrite(trx, r);
    return r;
  });
  ctx.writeHook?.onCommit();
  ctx.bus.publish(events);
  return result;
}
