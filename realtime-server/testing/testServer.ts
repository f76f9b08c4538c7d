import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import type { Transporter } from 'nodemailer';
import { loadConfig } from '../config';
import type { ClientToServerEvents, ServerToClientEvents, SocketAuth } from '../contract';
import { startServer } from '../server';
import { markBackgroundWork } from '../services/backgroundWork';
import type { Clock } from '../services/clock';
import { afterAll, beforeAll } from 'vitest';
import { type Credentials, DEMO } from './demoAccounts';
import { clonePostgresTemplate, copySqliteTemplate, dropDatabase } from './templateDb';
import { type Engine, dropSchema, freshPostgresUrl, testEngine } from './testEngine';

export interface ApiResult<T = any> { status: number; body: T; headers: Headers }

export interface TestServerOptions {
  env?: Record<string, string>;
  mailTransport?: Transporter;
  fetchImpl?: typeof fetch;
  /** Silent unless given (see memoryLog.ts). */
  log?: Logger;
  engine?: Engine;
  /** The server's clock (StartOptions.clock), when a test moves it (manualClock.ts). */
  clock?: Clock;
  /** Runs the migrations on an empty database, rather than starting on a copy of the run's migrated one (templateDb.ts). */
  fromEmpty?: boolean;
}

/**
 * A real server on an ephemeral port over a fresh database with the demo seed, with a
 * small HTTP client, for a test that starts and stops servers itself (a restart, a refused
 * start); a describe block's server is `useTestServer` below. The database is a fresh SQLite file, or
 * with TEST_ENGINE=postgres a fresh PostgreSQL database dropped at dispose (testEngine.ts),
 * each a copy of the run's migrated template (templateDb.ts) unless `fromEmpty`;
 * `engine: 'sqlite'` keeps a test that is about SQLite itself on SQLite, and an explicit
 * DATABASE_URL in `env` wins over both (and is migrated by the server itself).
 */
export async function startTestServer(opts: TestServerOptions = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-test-'));
  const engine: Engine = opts.env?.DATABASE_URL ? (/^postgres(ql)?:/.test(opts.env.DATABASE_URL) ? 'postgres' : 'sqlite') : (opts.engine ?? testEngine());
  const own = opts.env?.DATABASE_URL ? undefined : await ownDatabase(engine, dir, opts.fromEmpty ?? false);
  const config = loadConfig({
    DATABASE_URL: own?.url ?? path.join(dir, 'test.sqlite'),
    PORT: '0',
    GEOCODER_URL: 'off',
    PUBLIC_URL: 'http://lifeline.test',
    STATIC_DIR: path.join(dir, 'web'),
    // The demo history only where a test asks (DEMO_HISTORY_DAYS in `env`): every other test counts its own cases.
    DEMO_HISTORY_DAYS: '0',
    ...opts.env,
  });
  let server: Awaited<ReturnType<typeof startServer>>;
  // Before the server's jobs start: tests count a request's statements apart from the jobs' (statements.ts).
  markBackgroundWork();
  try {
    server = await startServer(config, { log: opts.log ?? pino({ level: 'silent' }), mailTransport: opts.mailTransport, fetchImpl: opts.fetchImpl, clock: opts.clock });
  } catch (err) {
    await own?.drop().catch(() => undefined);
    throw err;
  }
  const sockets: Socket[] = [];

  async function api<T = any>(method: string, urlPath: string, o: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined || o.raw !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(server.url + urlPath, { method, headers, body: o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body)) });
    const text = await res.text();
    let body: any = text;
    try { body = text ? JSON.parse(text) : undefined; } catch { /* not JSON */ }
    return { status: res.status, body, headers: res.headers };
  }

  async function signIn(who: keyof typeof DEMO | Credentials): Promise<string> {
    const res = await api('POST', '/api/auth/signin', { body: typeof who === 'string' ? DEMO[who] : who });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.token;
  }

  /** A Socket.IO client; resolves once connected, rejects with the handshake error. */
  function socket(auth: SocketAuth | Record<string, unknown>): Promise<Socket<ServerToClientEvents, ClientToServerEvents>> {
    const s = connect(server.url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(s);
    return new Promise((resolve, reject) => {
      s.once('connect', () => resolve(s));
      s.once('connect_error', (err) => reject(err));
    });
  }

  return {
    ...server,
    config,
    /** The database this server runs on. */
    engine,
    api,
    signIn,
    socket,
    async dispose() {
      for (const s of sockets) s.disconnect();
      await server.close();
      await own?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The test server's own database: a SQLite file in `dir` (a copy of the template, or none yet
 * for the server to create), or a PostgreSQL database cloned from the template (a fresh schema
 * where there is no template or `fromEmpty` asks for the migrations), dropped by `drop`.
 */
async function ownDatabase(engine: Engine, dir: string, fromEmpty: boolean): Promise<{ url: string; drop(): Promise<void> }> {
  if (engine === 'sqlite') {
    const url = path.join(dir, 'test.sqlite');
    if (!fromEmpty) copySqliteTemplate(url);
    return { url, drop: async () => undefined };
  }
  const pgUrl = process.env.DATABASE_URL!;
  const cloned = fromEmpty ? undefined : await clonePostgresTemplate(pgUrl);
  if (cloned) return { url: cloned, drop: () => dropDatabase(pgUrl, new URL(cloned).pathname.slice(1)) };
  const schema = await freshPostgresUrl('t');
  return { url: schema, drop: () => dropSchema(schema) };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/**
 * A test server for the enclosing describe block (or file): started before its first test,
 * disposed after its last. The answer stands for that server once it has started; options
 * that depend on an earlier `beforeAll` (a listener's URL) are given as a function, and this
 * call is placed after that `beforeAll` (hooks run in the order they are declared).
 */
export function useTestServer(opts: TestServerOptions | (() => TestServerOptions | Promise<TestServerOptions>) = {}): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(typeof opts === 'function' ? await opts() : opts);
  });
  afterAll(async () => {
    await server?.dispose();
    server = undefined;
  });
  return new Proxy({} as TestServer, {
    get(_target, key) {
      if (!server) throw new Error(`useTestServer: the server is read (.${String(key)}) outside its describe block's tests and hooks`);
      return Reflect.get(server, key, server);
    },
  });
}

/**
 * The demo operator's and admin's session tokens on `s`, signed in before the block's tests (after its
 * server has started: declare it after `useTestServer`); read them inside tests and hooks.
 */
export function signedInStaff(s: TestServer): { operator: string; admin: string } {
  const staff = { operator: '', admin: '' };
  beforeAll(async () => {
    staff.operator = await s.signIn('operator');
    staff.admin = await s.signIn('admin');
  });
  return staff;
}

/** Resolves with the next `event` on a socket, or rejects after `ms`. */
export function nextEvent<T = any>(s: Socket<any, any>, event: string, ms = 1000, match: (p: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { s.off(event, on); reject(new Error(`no ${event} within ${ms} ms`)); }, ms);
    const on = (p: T) => { if (!match(p)) return; clearTimeout(timer); s.off(event, on); resolve(p); };
    s.on(event, on);
  });
}

/** Collects every `event` on a socket until stopped. */
export function collect<T = any>(s: Socket<any, any>, event: string) {
  const seen: T[] = [];
  const on = (p: T) => seen.push(p);
  s.on(event, on);
  return { seen, stop: () => s.off(event, on) };
}

/**
 * A round trip on the socket's own connection: every event (or disconnection) the server sent
 * it before this call arrives first, so a test can look at what it heard, or did not hear,
 * without waiting for time to pass. Any socket may send a position: a staff, viewer or invalid
 * one is refused at once and changes nothing (realtime/driverEvents.ts). Resolves too when the
 * server closes the connection instead; the caller's own assertions say whether it should have.
 */
export function roundTrip(s: Socket<any, any>): Promise<void> {
  if (!s.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const closed = () => resolve();
    s.once('disconnect', closed);
    s.timeout(5000).emitWithAck('ambulance.position', null).then((ack: any) => {
      s.off('disconnect', closed);
      if (ack?.ok === false) resolve();
      else reject(new Error(`roundTrip: the server took a null position: ${JSON.stringify(ack)}`));
    }, (err: Error) => {
      s.off('disconnect', closed);
      if (s.connected) reject(err);
      else resolve();
    });
  });
}
