import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { createRateLimits } from '../edge/rateLimits';
import type { Metrics } from '../metrics';
import type { Principal } from './authService';
import type { Clock } from './clock';
import type { NodeContext } from './context';
import { EventBus } from './events';
import { PositionWriter } from './positionWriter';
import { createPrincipalCache } from './principalCache';
import { ReportGate } from './reportGate';
import { createStorageHealth } from './storageHealth';

export interface ServiceContextParts {
  db: Knex;
  config: Config;
  log: Logger;
  /** Default: a new random id (a test building several nodes in one process gets one each). */
  nodeId?: string;
  redis?: Redis;
  metrics?: Metrics;
  /** Time for the storage-health probe's spacing; a test moves it (default: the system clock). */
  clock?: Clock;
}

/** A server's id among the nodes: random per start, at most 36 characters (the idempotency claim's `owner`). */
export const newNodeId = (): string => randomUUID();

/**
 * The one place a server's long-lived parts are made (startServer, and tests that build a
 * node by hand): each exists once per context, and a copy of the context shares them.
 */
export function createServiceContext(parts: ServiceContextParts): NodeContext {
  const { db, config, log } = parts;
  const nodeId = parts.nodeId ?? newNodeId();
  const bus = new EventBus((err, e) => log.error({ err, event: e.type }, 'event listener failed'));
  // Storage health first: every storage failure from here on counts for /api/health. Each part is
  // given only what it uses, so none waits for a finished context.
  const storageHealth = createStorageHealth({ db, bus, log }, nodeId, parts.clock && { now: parts.clock.now });
  return {
    ...parts,
    nodeId,
    bus,
    lifecycle: { draining: false },
    rateLimits: createRateLimits(config, parts.redis),
    reports: new ReportGate(config.reports),
    storageHealth,
    positions: new PositionWriter({ db, bus, config, storageHealth, metrics: parts.metrics }),
    principals: createPrincipalCache<Principal>({ bus }),
  };
}
