import type { Knex } from 'knex';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { poolState } from '../db/connection';

/** Room names → the room type a metric is labelled with (never a case or ambulance id: unbounded labels). */
export function roomType(room: string): string | undefined {
  if (room === 'staff' || room === 'admins') return room;
  const kind = /^(case|ambulance|session|grant):/.exec(room)?.[1];
  return kind === 'case' || kind === 'ambulance' ? kind : undefined;
}

export interface MetricsSources {
  /** Rooms of this node's sockets and how many sockets each holds. */
  rooms: () => Map<string, Set<string>>;
  /** Sockets connected to this node. */
  sockets: () => number;
  /** Mail waiting to be sent. */
  outboxDepth: () => Promise<number>;
  db: Knex;
}

/**
 * What an operations engineer watches, in Prometheus text format (GET /api/metrics). One
 * registry per server (tests run several servers in one process), filled from live state at
 * each scrape where counting as it happens would be wasted work.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'lifeline_' });
  let sources: MetricsSources | undefined;

  const events = new Counter({ name: 'lifeline_events_total', help: 'Events sent to socket rooms, by event name.', labelNames: ['event'], registers: [registry] });
  const fanout = new Histogram({
    name: 'lifeline_fanout_seconds',
    help: 'From a committed position to its emit on this node, by room type (staff batches wait for their tick).',
    labelNames: ['room'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  new Gauge({
    name: 'lifeline_sockets',
    help: 'Sockets connected to this node, by room type (a socket is in several rooms).',
    labelNames: ['room'],
    registers: [registry],
    collect() {
      if (!sources) return;
      this.reset();
      const counts: Record<string, number> = { staff: 0, admins: 0, case: 0, ambulance: 0 };
      for (const [room, members] of sources.rooms()) {
        const type = roomType(room);
        if (type) counts[type] += members.size;
      }
      for (const [room, n] of Object.entries(counts)) this.set({ room }, n);
      this.set({ room: 'all' }, sources.sockets());
    },
  });
  new Gauge({
    name: 'lifeline_outbox_queued',
    help: 'E-mails queued and not yet sent.',
    registers: [registry],
    async collect() {
      if (sources) this.set(await sources.outboxDepth());
    },
  });
  new Gauge({
    name: 'lifeline_db_pool',
    help: 'Database connections of this node, by state (used, free, pending acquires).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = sources && poolState(sources.db);
      if (!pool) return;
      this.set({ state: 'used' }, pool.used);
      this.set({ state: 'free' }, pool.free);
      this.set({ state: 'pending' }, pool.pending);
    },
  });

  const positionWait = new Histogram({
    name: 'lifeline_position_ack_seconds',
    help: 'From a position reaching the writer to its answer (queue, checks, commit; a wait for an ambulance row held elsewhere included).',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  return {
    registry,
    /** Where the scrape-time figures come from (set once Socket.IO is up). */
    observe(s: MetricsSources) { sources = s; },
    emitted(event: string, n = 1) { events.inc({ event }, n); },
    /** A position committed at `at` (ms) reached this node's sockets of `room` now. */
    delivered(room: 'staff' | 'ambulance', at: number) { fanout.observe({ room }, Math.max(0, Date.now() - at) / 1000); },
    /** A position answered `seconds` after it reached the writer. */
    positionAcked(seconds: number) { positionWait.observe(seconds); },
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
