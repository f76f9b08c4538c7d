import path from 'node:path';
import { z } from 'zod';
import { PRIORITIES, type PriorityInfo } from './contract/callLife';
import type { ReportLimits } from './services/reportGate';
import { CLOCK_STOPS, type PriorityClockStops, type PriorityNeeds, TRANSPORT_CAPABILITIES, parsePerPriority } from './contract/capability';
import { DEFAULT_STALE_AFTER_S, POSITION_SOURCES, type PositionSourceName, type StaleThresholds } from './contract/location';

/** Every environment variable Lifeline reads (docs/operations.md explains each; scripts/docs.test.ts holds it to that). */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().default('data/lifeline.sqlite'),
  REDIS_URL: z.string().optional(),
  REDIS_PREFIX: z.string().regex(/^[\w.:-]{1,60}$/, 'letters, digits, . : _ - only').default('lifeline'),
  DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(5),
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Lifeline Dispatch <dispatch@lifeline.local>'),
  PUBLIC_URL: z.string().optional(),
  GEOCODER_URL: z.string().default('https://nominatim.openstreetmap.org'),
  GEOCODER_WAIT_SECONDS: z.coerce.number().min(0).max(30).default(5),
  GEOCODER_QUEUE_MAX: z.coerce.number().int().min(1).max(1000).default(20),
  CENTRE_LOCATION: z.string().default('17.385,78.4867'),
  STALE_AFTER: z.string().default(''),
  TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  SEED: z.enum(['demo', 'none']).default('demo'),
  DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_HOURS: z.coerce.number().positive().default(12),
  STATIC_DIR: z.string().default('dist/web'),
  ETA_SPEED_KMH: z.coerce.number().positive().max(200).default(30),
  TRUSTED_PROXY: z.string().optional(),
  ALLOWED_ORIGINS: z.string().optional(),
  SIGNIN_CODE: z.enum(['off', 'email']).default('off'),
  SIGNIN_LIMIT_ACCOUNT: z.coerce.number().int().positive().default(10),
  SIGNIN_LIMIT_IP: z.coerce.number().int().positive().default(50),
  SIGNIN_CODE_MAILS_PER_CLIENT: z.coerce.number().int().positive().default(3),
  SIGNIN_BACKOFF_AFTER: z.coerce.number().int().positive().default(5),
  SIGNIN_BACKOFF_SECONDS: z.coerce.number().int().min(1).max(900).default(60),
  LINK_LIMIT_PER_MIN: z.coerce.number().int().positive().default(120),
  LINK_LIMIT_PER_CLIENT: z.coerce.number().int().positive().default(600),
  SOCKET_EVENTS_PER_SEC: z.coerce.number().int().positive().default(10),
  LINK_SOCKETS_MAX: z.coerce.number().int().positive().default(5),
  REPORT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  REPORT_QUEUE: z.coerce.number().int().min(0).max(1000).default(8),
  REPORT_PER_USER: z.coerce.number().int().min(1).max(100).default(8),
  RETENTION_DAYS: z.coerce.number().positive().default(30),
  BOARD_RECENT_HOURS: z.coerce.number().min(0).max(168).default(12),
  BENCH_WRITE_STATS: z.enum(['0', '1']).optional(),
  PRIORITY_LABELS: z.string().default('Life-threatening,Emergency,Urgent,Less urgent'),
  PRIORITY_TARGETS: z.string().default('15m,40m,120m,180m'),
  PRIORITY_MEAN_TARGETS: z.string().default('7m,18m,-,-'),
  PRIORITY_NEEDS: z.string().default('1=als,2=als,3=bls,4=bls'),
  PRIORITY_CLOCK_STOP: z.string().default('1=first,2=transport,3=transport,4=transport'),
  QUEUE_ALERT_AFTER: z.string().default('1m,2m,5m,10m'),
  PREALERT_ACK_AFTER: z.string().default('3m'),
  HANDOVER_TARGETS: z.string().default('15,30,45,60'),
});

/** The names of the variables above, for the check that the docs and `--help` name every one. */
export const ENV_NAMES = Object.keys(envSchema.shape);

export type Config = {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl?: string;
  /** Names every Redis key, stream and channel of this deployment (several deployments may share one Redis). */
  redisPrefix: string;
  /** A bearer token that may read /api/metrics besides admins (for a Prometheus scraper). */
  metricsToken?: string;
  /** On SIGTERM: how long health answers 503 while still serving, before sockets are sent elsewhere. */
  drainSeconds: number;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl: string;
  /** Whether PUBLIC_URL was given (otherwise `publicUrl` is derived from HOST and PORT). */
  publicUrlGiven: boolean;
  /** The Nominatim-compatible geocoder's base URL (its /search and /reverse); null when GEOCODER_URL=off. */
  geocoderUrl: string | null;
  /**
   * The geocoder's one-request-a-second turns: how long a request may wait for its turn before
   * answering without the geocoder, and how many may wait on a node at once.
   */
  geocoderQueue: { maxWaitMs: number; maxQueued: number };
  /** The dispatch centre: address searches are biased to its area, short plus codes are recovered from it. */
  centre: { latitude: number; longitude: number };
  /** Seconds after which a fix from each position source is stale (DOMAIN.md §4; STALE_AFTER overrides). */
  staleAfterS: StaleThresholds;
  tileUrl: string;
  seed: 'demo' | 'none';
  /** With SEED=demo, the days of past (closed, demo-marked) calls a first start generates; 0 for none. */
  demoHistoryDays: number;
  logLevel: string;
  sessionTtlMs: number;
  staticDir: string;
  etaSpeedKmh: number;
  /** Ended calls stay on the live board (bare GET /api/cases) this many hours after they end. */
  boardRecentHours: number;
  /** Proxies whose X-Forwarded-For is believed (comma-separated IPs); none by default: the socket's address is the client's. */
  trustedProxies: string[];
  /** Origins a browser socket may connect from. */
  allowedOrigins: string[];
  /** `email`: after the three fields match, a one-time code is mailed and must be entered. */
  signinCode: 'off' | 'email';
  /**
   * Sign-in attempts per account and per IP in 15 minutes; calls per link token a minute;
   * events one socket may send a second (bursts of twice that); sockets one link token may hold open on a node.
   */
  limits: {
    signinPerAccount: number; signinPerIp: number; codeMailsPerClient: number; linkPerMinute: number; linkPerClientPerMinute: number;
    socketEventsPerSecond: number; socketsPerLink: number;
  };
  /**
   * Failed sign-ins one client may make on one account before it must wait, and that first
   * wait in seconds (doubling with each further failure, at most 15 minutes).
   */
  signinBackoff: { after: number; seconds: number };
  /**
   * Report work on this node (services/reportGate.ts): reports (JSON and CSV) made at once, waiting
   * for a turn (beyond it 503), and made or waiting for one staff member (beyond it 429).
   */
  reports: ReportLimits;
  /** Patient positions and ambulance position history are deleted this long after their case closes. */
  retentionDays: number;
  /** BENCH_WRITE_STATS=1: the position writer prints its commit counts to stderr (for the benchmarks). */
  writeStats: boolean;
  /** Priorities 1–4: labels, response targets and queue alert thresholds (NHS categories by default, DOMAIN.md §2). */
  priorities: PriorityInfo[];
  /** The least transport capability each priority needs (PRIORITY_NEEDS; bls < als < cct). */
  priorityNeeds: PriorityNeeds;
  /** Which arrival stops each priority's response clock (PRIORITY_CLOCK_STOP): the first unit, or the first able to convey. */
  clockStops: PriorityClockStops;
  /** A pre-alert not acknowledged this many seconds after it was sent alerts the dispatchers (PREALERT_ACK_AFTER). */
  prealertAckAfterS: number;
  /** The handover clock's four thresholds in minutes, ascending (HANDOVER_TARGETS; the third is "release to respond"). */
  handoverTargets: number[];
};

const list = (v: string | undefined) => (v ?? '').split(',').map((x) => x.trim()).filter(Boolean);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid environment: ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  const shownHost = e.HOST === '0.0.0.0' ? '127.0.0.1' : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL || undefined,
    redisPrefix: e.REDIS_PREFIX,
    metricsToken: e.METRICS_TOKEN || undefined,
    drainSeconds: e.DRAIN_SECONDS,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL || `http://${shownHost}:${e.PORT}`).replace(/\/+$/, ''),
    publicUrlGiven: Boolean(e.PUBLIC_URL),
    geocoderUrl: geocoderBase(e.GEOCODER_URL),
    geocoderQueue: { maxWaitMs: e.GEOCODER_WAIT_SECONDS * 1000, maxQueued: e.GEOCODER_QUEUE_MAX },
    centre: centreConfig(e.CENTRE_LOCATION),
    staleAfterS: staleConfig(e.STALE_AFTER),
    tileUrl: e.TILE_URL,
    seed: e.SEED,
    demoHistoryDays: e.DEMO_HISTORY_DAYS,
    logLevel: e.LOG_LEVEL,
    sessionTtlMs: e.SESSION_HOURS * 3600_000,
    staticDir: path.resolve(e.STATIC_DIR),
    etaSpeedKmh: e.ETA_SPEED_KMH,
    trustedProxies: list(e.TRUSTED_PROXY),
    allowedOrigins: e.ALLOWED_ORIGINS
      ? list(e.ALLOWED_ORIGINS)
      : [...new Set([new URL(e.PUBLIC_URL || `http://${shownHost}:${e.PORT}`).origin, `http://127.0.0.1:${e.PORT}`, `http://localhost:${e.PORT}`])],
    signinCode: e.SIGNIN_CODE,
    limits: {
      signinPerAccount: e.SIGNIN_LIMIT_ACCOUNT, signinPerIp: e.SIGNIN_LIMIT_IP, codeMailsPerClient: e.SIGNIN_CODE_MAILS_PER_CLIENT, linkPerMinute: e.LINK_LIMIT_PER_MIN, linkPerClientPerMinute: e.LINK_LIMIT_PER_CLIENT,
      socketEventsPerSecond: e.SOCKET_EVENTS_PER_SEC, socketsPerLink: e.LINK_SOCKETS_MAX,
    },
    signinBackoff: { after: e.SIGNIN_BACKOFF_AFTER, seconds: e.SIGNIN_BACKOFF_SECONDS },
    reports: { concurrency: e.REPORT_CONCURRENCY, queue: e.REPORT_QUEUE, perUser: e.REPORT_PER_USER },
    retentionDays: e.RETENTION_DAYS,
    boardRecentHours: e.BOARD_RECENT_HOURS,
    writeStats: e.BENCH_WRITE_STATS === '1',
    priorities: priorityConfig(e),
    priorityNeeds: parsePerPriority('PRIORITY_NEEDS', e.PRIORITY_NEEDS, TRANSPORT_CAPABILITIES),
    clockStops: parsePerPriority('PRIORITY_CLOCK_STOP', e.PRIORITY_CLOCK_STOP, CLOCK_STOPS),
    prealertAckAfterS: duration('PREALERT_ACK_AFTER', e.PREALERT_ACK_AFTER) ?? 180,
    handoverTargets: handoverTargets(e.HANDOVER_TARGETS),
  };
}

/** Four ascending whole minutes (the NHS's 15, 30, 45 and 60 by default). */
function handoverTargets(v: string): number[] {
  const parts = v.split(',').map((x) => Number(x.trim()));
  const ok = parts.length === 4 && parts.every((n, i) => Number.isInteger(n) && n > 0 && (i === 0 || n > parts[i - 1]));
  if (!ok) throw new Error(`Invalid environment: HANDOVER_TARGETS: "${v}" is not four ascending whole minutes (15,30,45,60)`);
  return parts;
}

/** `90s`, `15m`, `2h` or bare seconds; `-` for none. */
function duration(name: string, v: string): number | null {
  if (v === '-') return null;
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h)?$/.exec(v);
  if (!m || Number(m[1]) <= 0) throw new Error(`Invalid environment: ${name}: "${v}" is not a duration (90s, 15m, 2h)`);
  return Math.round(Number(m[1]) * { s: 1, m: 60, h: 3600 }[(m[2] ?? 's') as 's' | 'm' | 'h']);
}

/** Four comma-separated values, one per priority 1–4. */
function perPriority(name: string, v: string): string[] {
  const parts = v.split(',').map((x) => x.trim());
  if (parts.length !== PRIORITIES.length || parts.some((x) => !x)) throw new Error(`Invalid environment: ${name}: give four comma-separated values, for priorities 1 to 4`);
  return parts;
}

function priorityConfig(e: z.infer<typeof envSchema>): PriorityInfo[] {
  const labels = perPriority('PRIORITY_LABELS', e.PRIORITY_LABELS);
  const targets = perPriority('PRIORITY_TARGETS', e.PRIORITY_TARGETS);
  const means = perPriority('PRIORITY_MEAN_TARGETS', e.PRIORITY_MEAN_TARGETS);
  const queue = perPriority('QUEUE_ALERT_AFTER', e.QUEUE_ALERT_AFTER);
  return PRIORITIES.map((priority, i) => {
    const target = duration('PRIORITY_TARGETS', targets[i]);
    const queueAlert = duration('QUEUE_ALERT_AFTER', queue[i]);
    if (target == null) throw new Error('Invalid environment: PRIORITY_TARGETS: every priority needs a response target');
    if (queueAlert == null) throw new Error('Invalid environment: QUEUE_ALERT_AFTER: every priority needs a threshold');
    return { priority, label: labels[i], target_s: target, mean_target_s: duration('PRIORITY_MEAN_TARGETS', means[i]), queue_alert_s: queueAlert };
  });
}

/** GEOCODER_URL is the base; an older setting naming its /reverse endpoint still works. */
function geocoderBase(v: string): string | null {
  if (v === 'off') return null;
  if (!URL.canParse(v)) throw new Error(`Invalid environment: GEOCODER_URL: "${v}" is not a URL (or off)`);
  return v.replace(/\/+$/, '').replace(/\/(reverse|search)(\.php)?$/, '');
}

/** "lat,lon" in decimal degrees. */
function centreConfig(v: string) {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(v);
  const latitude = Number(m?.[1]);
  const longitude = Number(m?.[2]);
  if (!m || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) throw new Error(`Invalid environment: CENTRE_LOCATION: "${v}" is not "latitude,longitude" in decimal degrees`);
  return { latitude, longitude };
}

/** `osmand=600s,driver=45s`: per-source overrides of DEFAULT_STALE_AFTER_S. */
function staleConfig(v: string): StaleThresholds {
  const out = { ...DEFAULT_STALE_AFTER_S };
  for (const part of list(v)) {
    const [source, value = ''] = part.split('=').map((x) => x.trim());
    if (!(POSITION_SOURCES as readonly string[]).includes(source)) {
      throw new Error(`Invalid environment: STALE_AFTER: "${source}" is not a position source (${POSITION_SOURCES.join(', ')})`);
    }
    const s = duration('STALE_AFTER', value);
    if (s == null) throw new Error(`Invalid environment: STALE_AFTER: ${source} needs a duration`);
    out[source as PositionSourceName] = s;
  }
  return out;
}

/** The names of this deployment's Redis keys, streams and channels. */
export const redisNames = (prefix: string) => ({
  stream: `${prefix}:socket.io`,
  channels: `${prefix}:socket.io`,
  sessions: `${prefix}:sio:session:`,
  positions: `${prefix}:positions`,
  limits: `${prefix}:rl`,
});
