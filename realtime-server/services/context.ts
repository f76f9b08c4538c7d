import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Metrics } from '../metrics';
import type { DomainEvent, EventBus } from '../realtime/eventBus';
import type { StorageHealth } from './storageHealth';

/** What every service needs: the database, the bus, config and a logger; Redis when several nodes run. */
export interface ServiceContext {
  db: Knex;
  bus: EventBus;
  config: Config;
  log: Logger;
  /** The cluster's command connection (REDIS_URL): shared counters such as rate limits. */
  redis?: Redis;
  metrics?: Metrics;
  /** Set when the node begins to shut down: health answers 503 so a load balancer sends no more. */
  lifecycle?: { draining: boolean };
  /** Whether the database takes writes (health answers 503 while it does not); `writeFailed(err)` records a failure knex did not see. */
  storageHealth?: StorageHealth;
}

/** Who is acting, as recorded on the case timeline. */
export type Actor = { type: 'user'; id: number; role: 'admin' | 'operator' } | { type: 'patient' } | { type: 'driver' } | { type: 'system' };

/**
 * Runs `work` in one transaction; the events it records are published only after the
 * commit, so no client ever hears of a write that was rolled back.
 */
export async function inTransaction<T>(
  ctx: ServiceContext,
  work: (trx: Knex.Transaction, record: (e: DomainEvent) => void) => Promise<T>,
): Promise<T> {
  const events: DomainEvent[] = [];
  const result = await ctx.db.transaction((trx) => work(trx, (e) => events.push(e)));
  ctx.bus.publish(events);
  return result;
}
