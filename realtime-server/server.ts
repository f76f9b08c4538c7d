import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import pino, { type Logger } from 'pino';
import type { Transporter } from 'nodemailer';
import { openDatabase, verifyDatabase } from '../db/connection';
import { outboxRepository } from '../db/repositories/outboxRepository';
import { seedDemo } from '../db/seeds/demo';
import { startCheckpointer } from '../db/sqliteCheckpointer';
import type { Config } from './config';
import { createApp } from './http/app';
import { answerClientError } from './http/clientError';
import { startOutboxWorker } from './jobs/outboxWorker';
import { startRetentionJob } from './jobs/retention';
import { startPrealertWatch } from './jobs/prealertWatch';
import { createMetrics } from './metrics';
import { openCluster } from './realtime/cluster';
import { attachRealtime } from './realtime/socketServer';
import type { Clock } from './services/clock';
import { createGeocoder } from './services/geocodeService';
import { createServiceContext, newNodeId } from './services/serviceContext';

export interface StartOptions {
  log?: Logger;
  /** Replaces the SMTP transport built from SMTP_URL (tests). */
  mailTransport?: Transporter;
  fetchImpl?: typeof fetch;
  /** Time for the geocoder (one request a second, timeout, backoff) and the storage-health probe's spacing; tests move it instead of waiting. */
  clock?: Clock;
}

export async function migrate(db: Knex) {
  await db.migrate.latest();
}

/** Opens the database, migrates, seeds an empty one, and serves HTTP + Socket.IO on one port. */
export async function startServer(config: Config, opts: StartOptions = {}) {
  const log = opts.log ?? pino({ level: config.logLevel, base: undefined });
  // A SQLite path the server cannot use throws here, naming the path and the cause.
  const db = openDatabase(config.databaseUrl);
  try {
    await verifyDatabase(db, config.databaseUrl);
    await migrate(db);
    if (config.seed === 'demo') {
      const started = performance.now();
      if (await seedDemo(db, { historyDays: config.demoHistoryDays })) {
        log.info({ historyDays: config.demoHistoryDays, ms: Math.round(performance.now() - started) }, 'seeded the demo data into an empty database');
      }
    }
  } catch (err) {
    await db.destroy().catch(() => undefined);
    throw err;
  }
  const checkpointer = await startCheckpointer(db, config.databaseUrl, log);

  const nodeId = newNodeId();
  const cluster = await openCluster(config, log, nodeId).catch(async (err) => {
    await checkpointer.stop();
    await db.destroy();
    throw err;
  });
  const metrics = createMetrics();
  // Everything long-lived is made here, once: a bad TRUSTED_PROXY stops the start rather than a
  // request, and what was opened so far is closed (a process that retries leaks nothing).
  const opened = (() => {
    try {
      const ctx = createServiceContext({ db, config, log, nodeId, redis: cluster.redis, metrics, clock: opts.clock });
      return { ctx, app: createApp(ctx, { geocoder: createGeocoder(ctx, opts.fetchImpl, opts.clock) }).app };
    } catch (err) {
      return { err };
    }
  })();
  if ('err' in opened) {
    await cluster.close();
    await checkpointer.stop();
    await db.destroy();
    throw opened.err;
  }
  const { ctx, app } = opened;
  const httpServer = http.createServer(app.callback());
  httpServer.on('clientError', answerClientError);
  const realtime = attachRealtime(httpServer, ctx, cluster, metrics);
  metrics.observe({
    rooms: () => realtime.io.of('/').adapter.rooms,
    sockets: () => realtime.io.engine.clientsCount,
    outboxDepth: () => outboxRepository.countByStatus(db, 'queued'),
    db,
  });
  const outbox = startOutboxWorker(ctx, opts.mailTransport);
  // Once at start (before taking requests) and hourly: old patient positions and position history go.
  const retention = startRetentionJob(ctx);
  await retention.ready;
  // Pre-alerts nobody acknowledged in PREALERT_ACK_AFTER: the dispatchers are told to phone the hospital.
  const prealerts = startPrealertWatch(ctx);

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    ctx,
    /** The Koa app serving HTTP (a test walks its mounted routes). */
    app,
    io: realtime.io,
    /** This node's id among the cluster's nodes. */
    nodeId,
    outbox,
    /**
     * Drains: health turns 503 (a load balancer stops sending; `drainMs` waits for it to notice), jobs finish their pass, every
     * socket is told to go (its client reconnects, through the balancer, to another node),
     * requests in flight complete; then Redis and the database close.
     */
    close(opts: { drainMs?: number } = {}) {
      closing ??= (async () => {
        ctx.lifecycle.draining = true;
        // Time for the balancer's health check to see the 503 and send no one new here.
        if (opts.drainMs) await new Promise((r) => setTimeout(r, opts.drainMs));
        await retention.stop();
        await prealerts.stop();
        await outbox.stop();
        await realtime.close();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
        await cluster.close();
        await checkpointer.stop();
        await db.destroy();
      })();
      return closing;
    },
  };
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>;
