import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { PositionDto } from '../contract';
import { type Config, redisNames } from '../config';

/** A position on its way to the sockets, stamped with when it was published (for the fan-out histogram). */
export interface FeedPosition {
  position: PositionDto;
  /** ms since the epoch at publish (after the write's commit). */
  at: number;
}
type FeedListener = (p: FeedPosition) => void;

/**
 * What ties several server nodes into one live picture. With one node everything stays in
 * the process. With REDIS_URL:
 * - Socket.IO uses the Redis Streams adapter, so `io.to(room).emit(...)` and
 *   `io.in(room).disconnectSockets()` (state changes, revoked sessions and links) reach the
 *   sockets of every node;
 * - positions go through one pub/sub channel that every node hears, and each node sends them
 *   to its own sockets only (`io.local`): a room gets every position once and, for `staff`,
 *   one coalesced batch per tick however many nodes took the positions in;
 * - rate-limit counters live in Redis (see edge/rateLimits.ts), shared by all nodes.
 */
export interface Cluster {
  /** The command connection (rate limits), when clustered. */
  redis?: Redis;
  /** The Socket.IO adapter factory, when clustered. */
  adapter?: ReturnType<typeof createAdapter>;
  /** Sends a committed position to every node's listeners (this one included, at once). */
  publishPosition(position: PositionDto): void;
  /** Hears every position of the cluster; answers the unsubscribe. */
  onPosition(fn: FeedListener): () => void;
  close(): Promise<void>;
}

function localFeed() {
  const listeners = new Set<FeedListener>();
  return {
    listeners,
    deliver(p: FeedPosition, log?: Logger) {
      for (const fn of listeners) {
        try {
          fn(p);
        } catch (err) {
          log?.error({ err }, 'position listener failed');
        }
      }
    },
    on(fn: FeedListener) {
      listeners.add(fn);
      return () => { listeners.delete(fn); };
    },
  };
}

/** One process: nothing leaves it. */
export function singleNode(): Cluster {
  const feed = localFeed();
  return {
    publishPosition: (position) => feed.deliver({ position, at: Date.now() }),
    onPosition: (fn) => feed.on(fn),
    close: async () => {},
  };
}

/**
 * Connects to Redis (three connections: commands, the adapter's stream reads, position
 * subscriptions) and fails fast if it does not answer. `nodeId` tells this node's own positions
 * apart on the shared channel.
 */
export async function joinCluster(config: Config & { redisUrl: string }, log: Logger, nodeId: string): Promise<Cluster> {
  const names = redisNames(config.redisPrefix);
  const open = (role: string) => {
    const client = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3, enableAutoPipelining: true, connectionName: `lifeline-${role}` });
    // ioredis reconnects by itself; a lost Redis is logged, not fatal (rate limits fall back to memory, sockets to this node).
    client.on('error', (err) => log.warn({ err: err.message, role }, 'redis connection trouble'));
    return client;
  };
  const redis = open('commands');
  const streams = open('adapter');
  const subscriber = open('positions');
  try {
    await Promise.all([redis.connect(), streams.connect(), subscriber.connect()]);
  } catch (err) {
    redis.disconnect(); streams.disconnect(); subscriber.disconnect();
    throw new Error(`REDIS_URL: Redis does not answer (${(err as Error).message})`, { cause: err });
  }

  const feed = localFeed();
  await subscriber.subscribe(names.positions);
  subscriber.on('message', (channel, text) => {
    if (channel !== names.positions) return;
    let msg: { n: string; at: number; p: PositionDto };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return log.warn('unreadable position message on the cluster channel');
    }
    if (msg.n !== nodeId) feed.deliver({ position: msg.p, at: msg.at }, log);
  });

  return {
    redis,
    adapter: createAdapter(streams, { streamName: names.stream, channelPrefix: names.channels, sessionKeyPrefix: names.sessions, onlyPlaintext: true }),
    publishPosition(position) {
      const at = Date.now();
      feed.deliver({ position, at }, log);
      redis.publish(names.positions, JSON.stringify({ n: nodeId, at, p: position }))
        .catch((err: Error) => log.warn({ err: err.message }, 'position not published to the other nodes'));
    },
    onPosition: (fn) => feed.on(fn),
    async close() {
      await Promise.allSettled([subscriber.quit(), streams.quit(), redis.quit()]);
    },
  };
}

/** The cluster this configuration asks for. */
export const openCluster = (config: Config, log: Logger, nodeId: string): Promise<Cluster> =>
  (config.redisUrl ? joinCluster({ ...config, redisUrl: config.redisUrl }, log, nodeId) : Promise.resolve(singleNode()));
