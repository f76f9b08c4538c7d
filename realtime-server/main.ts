import pino from 'pino';
import { loadConfig } from './config';
import { usableDemoAccounts } from '../db/seeds/demo';
import { startServer } from './server';

/** What the server tells `npm start` once it is serving (see scripts/bootstrap.mjs). */
export interface FrontDoorReady {
  type: 'lifeline:ready';
  url: string;
  demo: { email: string; name: string; phone: string | null; role: string }[];
}

if (process.argv.includes('--help')) {
  console.log(`Lifeline server: REST API, Socket.IO and the built web app on one port.

Usage: npm start            (installs, builds, migrates, seeds, then runs this)
       npx tsx realtime-server/main.ts

Environment: PORT (3000), HOST (127.0.0.1), DATABASE_URL (data/lifeline.sqlite or postgres://...),
REDIS_URL, SMTP_URL, MAIL_FROM, PUBLIC_URL, GEOCODER_URL (base URL, or off), GEOCODER_WAIT_SECONDS (5),
GEOCODER_QUEUE_MAX (20), CENTRE_LOCATION (lat,lon), TILE_URL, SEED (demo|none),
DEMO_HISTORY_DAYS (30), LOG_LEVEL (info), SESSION_HOURS (12), STATIC_DIR (dist/web), ETA_SPEED_KMH (30), TRUSTED_PROXY, ALLOWED_ORIGINS,
SIGNIN_CODE (off|email), SIGNIN_LIMIT_ACCOUNT (10), SIGNIN_LIMIT_IP (50), SIGNIN_BACKOFF_AFTER (5),
SIGNIN_BACKOFF_SECONDS (60), SIGNIN_CODE_MAILS_PER_CLIENT (3), LINK_LIMIT_PER_MIN (120), LINK_LIMIT_PER_CLIENT (600), SOCKET_EVENTS_PER_SEC (10),
LINK_SOCKETS_MAX (5), REPORT_CONCURRENCY (2), REPORT_QUEUE (8), REPORT_PER_USER (8), RETENTION_DAYS (30), BOARD_RECENT_HOURS (12), REDIS_PREFIX (lifeline), METRICS_TOKEN, DRAIN_SECONDS (5),
STALE_AFTER (driver=60s,staff=120s,osmand=120s,owntracks=120s), PRIORITY_LABELS, PRIORITY_TARGETS,
PRIORITY_MEAN_TARGETS, QUEUE_ALERT_AFTER, PRIORITY_NEEDS (1=als,2=als,3=bls,4=bls),
PRIORITY_CLOCK_STOP (1=first,2=transport,3=transport,4=transport), PREALERT_ACK_AFTER (3m),
HANDOVER_TARGETS (15,30,45,60).
Several nodes: DATABASE_URL=postgres://... and REDIS_URL on each.
Each variable, by concern, and what a deployer must know: docs/operations.md.`);
  process.exit(0);
}

const config = loadConfig();
const log = pino({ level: config.logLevel, base: undefined });

startServer(config, { log }).then(
  async (server) => {
    log.info(`Lifeline is running at ${server.url} (database: ${config.databaseUrl.replace(/\/\/[^@]*@/, '//***@')})`);
    // Started by `npm start` (scripts/bootstrap.mjs, over an IPC channel): it prints the plain
    // "open this address, sign in as" lines; this process's own output stays JSON.
    if (process.send) {
      const demo = await usableDemoAccounts(server.ctx.db).catch(() => []);
      const ready: FrontDoorReady = { type: 'lifeline:ready', url: config.publicUrlGiven ? config.publicUrl : server.url, demo: demo.map(({ email, name, phone, role }) => ({ email, name, phone, role })) };
      process.send(ready);
    }
    // SIGTERM (an orchestrator, a rolling deploy) drains for DRAIN_SECONDS; Ctrl-C stops at once.
    const shutdown = (signal: string) => {
      const drainMs = signal === 'SIGTERM' ? config.drainSeconds * 1000 : 0;
      log.info({ signal, drainMs }, 'shutting down');
      const force = setTimeout(() => process.exit(1), drainMs + 10_000);
      force.unref();
      void server.close({ drainMs }).then(() => process.exit(0));
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  },
  (err) => {
    // The cause in the message itself: the one line an operator reads (e.g. a DATABASE_URL the server cannot use).
    log.fatal({ err }, `Lifeline failed to start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
