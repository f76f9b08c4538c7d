import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_SEARCH_UNAVAILABLE } from '../contract';
import { createApp } from '../http/app';
import { access } from '../policies/permissions';
import { dbSnapshot } from '../testing/assertions';
import { dispatchCase, expectStatus, trackingTokens, locationToken } from '../testing/dispatchHelpers';
import { dropSchema, onPostgresPass, postgresSuitesUrl, withSchema } from '../testing/testEngine';
import { type TestServer, useTestServer } from '../testing/testServer';

/**
 * Hostile input: thousands of malformed, oversized, wrongly typed, unicode-laden
 * and injection-shaped bodies, query strings and route params to every route the router
 * serves (as operator, admin and anonymous; link routes also with live link tokens), and
 * payloads to the driver socket's `ambulance.position`. Every answer: never a 5xx, never a
 * stack trace, `{error}` with a useful text on a 4xx, no row changed on a 4xx; the server
 * still answers health afterwards. After a write, every stored string must be text any
 * database keeps (no NUL or other control characters, no broken unicode). With
 * DATABASE_URL=postgres://… the same fuzz runs on PostgreSQL too (a third of the time).
 *
 * FUZZ_RUNS (default 40) is the number of inputs per route and caller; the whole file is
 * also bounded in time (FUZZ_SECONDS, default 45) so that `npm test` stays within a minute
 * on a loaded machine, but every route gets FLOOR_RUNS inputs as each caller first, whatever
 * the time. What the budget cut short is no secret: the file's last test names how many
 * inputs were tried and how many routes × callers got only their floor (printed, and as an annotation).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const BUDGET_MS = Number(process.env.FUZZ_SECONDS ?? 45) * 1000;
const SOCKET_RUNS = Math.max(50, RUNS * 12);
/** Inputs every route gets as each caller whatever the machine's speed, before the time budget buys more. */
const FLOOR_RUNS = 2;
const PG_URL = postgresSuitesUrl();

// ---------------------------------------------------------------- what is sent

/** Strings that have broken servers before. */
const NASTY = [
  '', ' ', '\t\n', "'; DROP TABLE cases; --", "' OR '1'='1", '" OR ""="', '1; SELECT * FROM users', 'admin\'--',
  '<script>window.__xss=1</script>', '<img src=x onerror="window.__xss=2">', 'javascript:alert(1)', '"><svg/onload=alert(1)>',
  '../../../../etc/passwd', '..\\..\\windows\\win.ini', '%00', '\u0000', 'a\u0000b', '%2e%2e%2f', '/..;/', '%', '%zz', '%E0%A4%A',
  '\u202Eevil\u202C', 'مرحبا بالعالم', 'שלום', '😀🚑🩺', '👨‍👩‍👧‍👦', '\uFEFF', '\u200B', 'Ａｄｍｉｎ', 'İ', 'ß', '\uD800', '\uDFFF', 'a\uD83D', '\uDE00b',
  '${7*7}', '{{7*7}}', '#{7*7}', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  'null', 'undefined', 'NaN', 'Infinity', '-1', '0', '-0', '1e309', '0x10', '1.5', '00001', '9'.repeat(40), '2147483648', '9007199254740993',
  '\r\nSet-Cookie: pwned=1', 'true', 'false', '[]', '{}', 'admin@lifeline.test', 'ADMIN@LIFELINE.TEST', 'a@b', '@', 'x@y.z'.repeat(60),
];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'toString', 'valueOf', '', ' ', '$where', '$gt', 'a.b', 'a[b]', '0'];
/** Field names of every request body in the contract, so that generated bodies get past "unknown key". */
const FIELDS = [
  'operator_id', 'to', 'email', 'patient_email', 'status', 'patientName', 'patient_name', 'description', 'caseType', 'license_plate', 'ambulance_id',
  'latitude', 'longitude', 'accuracy', 'heading', 'speed', 'timestamp', 'name', 'role', 'address', 'location', 'phone', 'shift', 'gender', 'active',
  'caseId', 'ambulanceId', 'patientEmail', 'driverEmail', 'username', 'challenge', 'code',
];

const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...NASTY), fc.integer({ min: 200, max: 5000 })).map(([x, n]) => x.repeat(Math.ceil(n / Math.max(1, x.length))).slice(0, n)) },
  { weight: 1, arbitrary: fc.constantFrom(...NASTY).map((x) => `${x}${'é'.repeat(70_000)}`) },
);
const nastyNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 2, 3, 7, 90, 90.0000001, -180.5, 181, 1e308, -1e308, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 5e-324, 1.5, 360.1),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
/** Any JSON value, with hostile strings and keys, nested. */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString, nastyNumber, fc.boolean(), fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...HOSTILE_KEYS, ...FIELDS), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Plausible values of a field, so that bodies get past the first check and hit the next one. */
const plausible: Record<string, fc.Arbitrary<unknown>> = {
  email: fc.constantFrom('patient@example.com', 'x@y.z', 'operator@lifeline.test'),
  to: fc.constantFrom('patient@example.com', 'someone@example.org'),
  status: fc.constantFrom('active', 'closed', 'resolved', 'pending', 'available', 'busy', 'maintenance', 'ACTIVE'),
  patientName: fc.constantFrom('Asha Rao', 'ราม', '<b>x</b>'),
  description: fc.constantFrom('Heart Attack', 'Patient: X, Type: Stroke'),
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
  license_plate: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constantFrom('TS09 EA 1001', 'TS09 FZ 0001')),
  ambulance_id: fc.integer({ min: 1, max: 9 }),
  ambulanceId: fc.integer({ min: 1, max: 9 }),
  shift: fc.integer({ min: 0, max: 4 }),
  gender: fc.integer({ min: -1, max: 3 }),
  role: fc.constantFrom('operator', 'admin', 'driver'),
  name: fc.constantFrom('Fuzz Operator', 'Z'),
  phone: fc.constantFrom('555 0199', '+91 (40) 555-0100'),
  timestamp: fc.oneof(fc.integer({ min: 1, max: 2 ** 50 }), fc.constantFrom('2026-01-01T00:00:00Z', 'yesterday')),
  code: fc.constantFrom('123456', '12 34 56', 'abcdef'),
  active: fc.boolean(),
};
const fieldValue = (key: string) => (Object.hasOwn(plausible, key) ? fc.oneof({ weight: 2, arbitrary: plausible[key] }, { weight: 3, arbitrary: jsonValue }) : jsonValue);

/** A JSON body: an object of known fields with plausible or hostile values, hostile keys, or any JSON at all. */
const objectBody = fc.uniqueArray(fc.constantFrom(...FIELDS, ...HOSTILE_KEYS), { maxLength: 7 })
  .chain((keys) => fc.tuple(...keys.map(fieldValue)).map((values) => {
    const o: Record<string, unknown> = {};
    keys.forEach((k, i) => Object.defineProperty(o, k, { value: values[i], enumerable: true, writable: true, configurable: true }));
    return o;
  }));

/**
 * A valid body per route (the ids filled in per server), so that a mutated copy (one to
 * three fields hostile, missing or added) gets past the first checks and reaches the service
 * and the database: the deepest paths a malformed request can reach.
 */
type Template = Record<string, unknown>;
const templates = (f: { caseId: string }): Record<string, Template> => {
  const newCase = { to: 'patient@example.com', status: 'active', patientName: 'Pat Doe', description: 'Stroke', caseType: 'Fire' };
  const user = { name: 'Fuzz Operator', email: 'fuzz.op@example.com', role: 'operator', shift: 1, gender: 0, phone: '555 0199', address: 'Road 1', location: 'Hyderabad' };
  return {
    'POST /api/auth/signin': { email: 'operator@lifeline.test', username: 'Operator', phone: '5550101' },
    'POST /api/auth/signin/verify': { challenge: 'no-such-challenge', code: '123456' },
    'POST /api/cases': newCase,
    'POST /live-location': newCase,
    'PUT /api/cases/:id': { patientName: 'Pat Doe', email: 'patient@example.com', description: 'Stroke, conscious', status: 'active', caseType: 'Fire' },
    'POST /api/tracking/initiate': { caseId: f.caseId, ambulanceId: 1, patientEmail: 'patient@example.com', driverEmail: 'driver1@lifeline.test' },
    'POST /api/ambulances': { license_plate: 'FZ 0001', status: 'available', email: 'fz@example.com', latitude: 17.4, longitude: 78.5 },
    'PUT /api/ambulances/:id': { license_plate: 'TS09 EA 1003', status: 'available', email: 'driver3@lifeline.test' },
    'POST /api/ambulances/:id/position': { latitude: 17.4, longitude: 78.5, accuracy: 5, heading: 90, speed: 10 },
    'POST /api/users': user,
    'PUT /api/users/:id': user,
    'POST /api/location/:caseId': { latitude: 17.4, longitude: 78.5, accuracy: 10 },
  };
};
/** Snippets spliced into a valid value: control characters, broken unicode, quotes, markup, huge numbers. */
const SNIPPETS = ['\u0000', '\u0007', '\u001F', '\u007F', '\uD800', '\uDC00', '\u202E', '\uFEFF', '😀', "'", '"', '\\', '`', '<script>', '%00', '${x}', '\r\n', '\u2028', 'ö'.repeat(300), '9'.repeat(30)];
const spliced = (template: Template): fc.Arbitrary<Template> => {
  const keys = Object.keys(template);
  return fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...SNIPPETS), fc.nat()).map(([k, snippet, at]) => {
    const v = String(template[k]);
    const i = at % (v.length + 1);
    return { ...template, [k]: `${v.slice(0, i)}${snippet}${v.slice(i)}` };
  });
};
const mutated = (template: Template): fc.Arbitrary<Template> => fc.oneof(spliced(template), changed(template));
const changed = (template: Template): fc.Arbitrary<Template> => {
  const keys = Object.keys(template);
  return fc.array(fc.tuple(fc.constantFrom(...keys, ...keys, ...HOSTILE_KEYS), fc.oneof({ weight: 4, arbitrary: jsonValue }, { weight: 1, arbitrary: fc.constant(undefined) })), { minLength: 1, maxLength: 3 })
    .map((changes) => {
      const o: Template = { ...template };
      for (const [k, v] of changes) {
        if (v === undefined) delete o[k];
        else Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return o;
    });
};

/** What goes over the wire: JSON text with a content type, or something that is not JSON at all. */
interface RawBody { text?: string; contentType?: string; headers?: Record<string, string> }
const deepNest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const rawBody = (template?: Template): fc.Arbitrary<RawBody> => fc.oneof(
  ...(template ? [{ weight: 10, arbitrary: mutated(template).map((o): RawBody => ({ text: JSON.stringify(o) })) }] : []),
  { weight: 6, arbitrary: objectBody.map((o) => ({ text: JSON.stringify(o) })) },
  { weight: 2, arbitrary: jsonValue.map((v) => ({ text: JSON.stringify(v) ?? 'null' })) },
  { weight: 1, arbitrary: fc.constantFrom<RawBody>(
    { text: '' }, { text: '{' }, { text: '{"a":' }, { text: 'null' }, { text: '[]' }, { text: '"x"' }, { text: '1e999' }, { text: 'NaN' },
    { text: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}' },
    { text: '{"latitude":1,"latitude":"dup"}' },
    { text: deepNest(5000) }, { text: `{"a":${deepNest(2000)}}` },
    { text: `{"description":"${'x'.repeat(1024 * 1024 + 10)}"}` },
    { text: 'x'.repeat(10 * 1024 * 1024) },
    { text: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { text: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--', contentType: 'multipart/form-data; boundary=b' },
    { text: '<xml/>', contentType: 'application/xml' },
    { text: '{"a":1}', contentType: 'text/plain' },
    { text: '{"a":1}', contentType: 'application/json; charset=utf-16' },
    { text: '{"a":1}', contentType: 'application/json; charset=latin1' },
    { text: '{"a":1}', contentType: 'application/json', headers: { 'content-encoding': 'gzip' } },
    { text: '{"a":1}', contentType: 'application/json', headers: { 'content-encoding': 'br' } },
    { text: '\uFEFF{"a":1}' },
    { text: '{"a":"\\ud800"}' },
  ) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((t) => ({ text: t })) },
  { weight: 1, arbitrary: fc.constant<RawBody>({}) },
);

/** Percent-encodes any text; a lone surrogate (no UTF-8 form) goes as its CESU bytes, which are not valid UTF-8. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const enc = (x: string) => x.split(LONE).map((part) => encodeURIComponent(part)).join('%ED%A0%80');

/** A path parameter: hostile text (encoded, or raw with its percent signs), or a real id now and then. */
const param = (real: () => string[]) => fc.oneof(
  { weight: 3, arbitrary: nastyString.map((x) => enc(x.slice(0, 3000))) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%C0%AE', '%uD800', '%F0%9F', '%ED%A0%80', '%C3%28', 'a%2Fb', '1%00', '%20', '+') },
  { weight: 2, arbitrary: fc.integer({ min: -2, max: 12 }).map(String) },
  { weight: 2, arbitrary: fc.constant(null).map(() => real()).chain((ids) => fc.constantFrom(...ids)) },
);

/** A query string: known keys with hostile or real values, repeated keys, array and object syntax, junk. */
const QUERY_KEYS = ['t', 'lat', 'lon', 'email', '__proto__', 'constructor[prototype][x]', 't[]', 't[a]', 'a[__proto__][b]', ''];
const queryString = fc.oneof(
  fc.constant(''),
  fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.oneof(
    nastyString.map((x) => enc(x.slice(0, 2000))),
    fc.constantFrom('%', '%zz', '17.385', '78.4867', '-91', '181', '1e400', 'admin%40lifeline.test', '', '__LINK__'),
  )), { maxLength: 5 }).map((pairs) => `?${pairs.map(([k, v]) => `${enc(k)}=${v}`).join('&')}`),
  fc.constantFrom('?', '?&&&', '?t', '?t=&t=', `?${'a=1&'.repeat(3000)}`, `?x=${'y'.repeat(20_000)}`),
);

const methods = (own: string) => fc.oneof({ weight: 12, arbitrary: fc.constant(own) }, { weight: 1, arbitrary: fc.constantFrom('PATCH', 'OPTIONS', 'HEAD', 'DELETE', 'PUT', 'POST', 'GET', 'PROPFIND') });

// ---------------------------------------------------------------- what every answer must be

// eslint-disable-next-line no-control-regex -- the control characters are the point of the pattern
const UNPORTABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const STACK = /\n\s+at |\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+|SQLITE_|knex|sqlite3|TypeError|ReferenceError|SyntaxError: |syntax error at|violates|relation "/;

interface Sent { method: string; url: string; as: string; body?: RawBody; idempotencyKey?: string | null }
interface Answer { status: number; text: string; type: string }
const show = (req: Sent) => `${req.as} ${req.method} ${req.url.slice(0, 300)} ${req.body?.contentType ?? ''} ${(req.body?.text ?? '').slice(0, 300)}`;

/** The first rows that differ between two versions of a table, for a failure message. */
function rowDiff(a: unknown[] = [], b: unknown[] = []) {
  const before = new Set(a.map((r) => JSON.stringify(r)));
  const after = new Set(b.map((r) => JSON.stringify(r)));
  const gone = [...before].filter((r) => !after.has(r)).slice(0, 2);
  const added = [...after].filter((r) => !before.has(r)).slice(0, 2);
  return `-${gone.join(' -').slice(0, 600)} +${added.join(' +').slice(0, 600)}`;
}

function changedTables(a: Record<string, unknown[]>, b: Record<string, unknown[]>) {
  return Object.keys({ ...a, ...b }).filter((t) => JSON.stringify(a[t]) !== JSON.stringify(b[t]));
}

/** fc.assert with a short report: the first failure's message and a truncated counterexample (fuzz values can be megabytes). */
/** Runs a property; answers whether the time limit stopped it before its `numRuns`. */
async function assertProperty<T>(property: fc.IAsyncProperty<T>, params: fc.Parameters<T>): Promise<{ cutShort: boolean }> {
  const out = await fc.check(property, params);
  // Out of time before the first input completed (a slow machine): not a failure, just no inputs.
  if (!out.failed || (out.interrupted && out.counterexample == null)) return { cutShort: out.interrupted };
  const example = JSON.stringify(out.counterexample, (_k, v) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}…(${v.length} chars)` : v));
  const cause = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
  throw new Error(`${cause.slice(0, 2000)}\n  counterexample: ${example?.slice(0, 1500)}\n  seed ${out.seed}, path ${out.counterexamplePath}`);
}

/** Every route the router serves, read from the router itself. */
function servedRoutes(s: TestServer) {
  const { router } = createApp(s.ctx);
  const out: { method: string; path: string }[] = [];
  for (const layer of router.stack) {
    for (const method of layer.methods) if (method !== 'HEAD') out.push({ method, path: String(layer.path) });
  }
  return out;
}

/**
 * The whole fuzz against one server: socket payloads first (they need the live driver link),
 * then every route as operator, admin and anonymous, then health.
 */
function fuzzSuite(name: string, opts: { env: Record<string, string>; budgetMs: number; runs: number; dropSchema?: () => Promise<void> }) {
  describe(name, () => {
    afterAll(async () => { await opts.dropSchema?.(); });
    // Rates are not what is fuzzed here (the limits have their own tests): every input reaches the checks it is about.
    const s = useTestServer({ env: {
      LINK_LIMIT_PER_MIN: '1000000', LINK_LIMIT_PER_CLIENT: '1000000', SIGNIN_LIMIT_IP: '1000000', SIGNIN_LIMIT_ACCOUNT: '1000000',
      SIGNIN_BACKOFF_AFTER: '1000000', SOCKET_EVENTS_PER_SEC: '1000000', ...opts.env,
    } });
    let started = 0;
    /** What was tried, and what the time budget left out: properties stopped early, routes × callers never reached. */
    const tried = { http: 0, socket: 0, byStatus: {} as Record<number, number>, cutShort: 0, routesLeftOut: 0, floor: 0 };
    const report = () => {
      const byStatus = Object.entries(tried.byStatus).map(([k, v]) => `${k}:${v}`).join(' ');
      const budget = tried.cutShort || tried.routesLeftOut
        ? `; the ${Math.round(opts.budgetMs / 1000)} s budget stopped ${tried.cutShort} properties early and left ${tried.routesLeftOut} routes × callers at their ${FLOOR_RUNS} floor inputs`
        : '';
      return `fuzz (${name}): ${tried.http} HTTP requests (${byStatus}), ${tried.socket} socket payloads in ${Math.round((Date.now() - started) / 1000)} s${budget}`;
    };
    const count = (run: { cutShort: boolean }) => { if (run.cutShort) tried.cutShort += 1; };
    /** Fixture rows and credentials the generated requests may point at. */
    const f = { caseId: '', closedCaseId: '', viewer: '', driver: '', locationToken: '', operatorId: 0, demoOperatorId: 0, admin: '', operator: '' };
    const timeLeft = () => opts.budgetMs - (Date.now() - started);
    /**
     * fast-check's `interruptAfterTimeLimit` abandons an async run in flight when the time is up,
     * but its request goes on on the server. Each run therefore starts only once the one before
     * it (abandoned or not) has finished, so a late write is never blamed on the next request.
     */
    let inflight: Promise<unknown> = Promise.resolve();
    const oneAtATime = <A extends unknown[]>(run: (...a: A) => Promise<void>) => (...a: A): Promise<void> => {
      const p = inflight.then(() => run(...a));
      inflight = p.catch(() => undefined);
      return p;
    };

    /**
     * Write detection. On SQLite (one connection) `total_changes()` counts every row written:
     * when it has not moved, nothing was written and the full snapshot is skipped; when it
     * has, the snapshots decide (a rolled-back write counts but changes nothing).
     */
    let snapshot: Record<string, unknown[]> = {};
    let counted = -1;
    const changes = async (): Promise<number> => {
      if (s.ctx.db.client.config.client === 'pg') return NaN;
      const rows = await s.ctx.db.raw('select total_changes() as n');
      return Number(rows[0].n);
    };
    /** The database as it is now, and its write count. */
    async function settle() {
      const now = await changes();
      if (Number.isNaN(now) || now !== counted) snapshot = await dbSnapshot(s.ctx.db);
      counted = now;
    }
    /** `keyed`: the request carried an Idempotency-Key, whose refusal is stored to be replayed (by design). */
    async function expectUnchanged(fail: (why: string) => never, keyed = false) {
      const now = await changes();
      if (!Number.isNaN(now) && now === counted) return;
      const after = await dbSnapshot(s.ctx.db);
      const changed = changedTables(snapshot, after).filter((t) => !(keyed && t === 'idempotency_keys'));
      if (changed.length) fail(`a refusal that changed ${changed.join(', ')}: ${changed.map((t) => rowDiff(snapshot[t], after[t])).join('; ')}`);
    }

    /**
     * After a write: every stored string is text any database keeps as it is (PostgreSQL
     * refuses NUL; a lone surrogate becomes U+FFFD), so what SQLite accepted would work there too.
     */
    async function expectPortableText(fail: (why: string) => never) {
      const now = await changes();
      if (!Number.isNaN(now) && now === counted) return;
      for (const [table, rows] of Object.entries(await dbSnapshot(s.ctx.db))) {
        const known = new Set((snapshot[table] ?? []).map((r) => JSON.stringify(r)));
        for (const row of (rows as Record<string, unknown>[]).filter((r) => !known.has(JSON.stringify(r)))) {
          for (const [column, v] of Object.entries(row)) {
            if (typeof v === 'string' && UNPORTABLE.test(v)) fail(`stored ${table}.${column} = ${JSON.stringify(v.slice(0, 200))}: control characters or broken unicode`);
          }
        }
      }
    }

    async function send(req: Sent, token?: string): Promise<Answer> {
      const headers: Record<string, string> = { ...req.body?.headers };
      if (token) headers.authorization = `Bearer ${token}`;
      if (req.idempotencyKey != null) headers['idempotency-key'] = req.idempotencyKey;
      const hasBody = req.body?.text !== undefined && !['GET', 'HEAD'].includes(req.method);
      if (hasBody) headers['content-type'] = req.body!.contentType ?? 'application/json';
      let res: Response;
      try {
        res = await fetch(s.url + req.url, { method: req.method, headers, body: hasBody ? req.body!.text : undefined });
      } catch (err: any) {
        throw new Error(`no answer (${err?.cause?.code ?? ''} ${err?.cause?.message ?? err?.message})\n  request: ${show(req)}`, { cause: err });
      }
      const text = await res.text();
      tried.http += 1;
      tried.byStatus[res.status] = (tried.byStatus[res.status] ?? 0) + 1;
      return { status: res.status, text, type: res.headers.get('content-type') ?? '' };
    }

    /** The checks of every answer; the database is compared with `settle()`'s on a 4xx. */
    async function check(req: Sent, res: Answer) {
      const fail = (why: string): never => { throw new Error(`${why}\n  request: ${show(req)}\n  answer: ${res.status} ${res.text.slice(0, 500)}`); };
      // The one documented 5xx: an address search with the geocoder off (the test server runs GEOCODER_URL=off).
      const searchUnavailable = res.status === 503 && req.url.startsWith('/api/geocode/search') && res.text === JSON.stringify({ error: ADDRESS_SEARCH_UNAVAILABLE });
      if (res.status >= 500 && !searchUnavailable) fail('a 5xx');
      if (STACK.test(res.text)) fail('a stack trace or internals in the body');
      if (res.status < 400) return expectPortableText(fail);
      if (!res.type.includes('application/json')) fail(`a ${res.type || 'typeless'} refusal`);
      // A HEAD answer has no body by definition (RFC 9110); its GET twin is fuzzed with the same inputs.
      if (req.method !== 'HEAD') {
        let body: any;
        try { body = JSON.parse(res.text); } catch { fail('a refusal that is not JSON'); }
        if (!body || typeof body !== 'object' || Object.keys(body).join() !== 'error') fail('a refusal that is not exactly {error}');
        const useful = typeof body.error === 'string' && body.error.trim().length >= 5 && body.error.length <= 600 && !/^\[object|^undefined$|^Error$|Internal server error/.test(body.error);
        if (!useful) fail('a refusal without a useful text');
      }
      await expectUnchanged(fail, req.idempotencyKey != null);
    }

    beforeAll(async () => {
      started = Date.now();
      // A built app to fall back to, so that a path that escapes /api/ meets the SPA, not "not built yet".
      fs.mkdirSync(s.config.staticDir, { recursive: true });
      fs.writeFileSync(path.join(s.config.staticDir, 'index.html'), '<!doctype html><title>Lifeline</title>');
      f.admin = await s.signIn('admin');
      f.operator = await s.signIn('operator');
      f.caseId = await dispatchCase(s, f.operator, 1);
      ({ viewer: f.viewer, driver: f.driver } = await trackingTokens(s, f.operator, f.caseId, 1));
      f.locationToken = await locationToken(s, f.caseId);
      f.closedCaseId = await dispatchCase(s, f.operator, 2);
      expectStatus(await s.api('PUT', `/api/cases/${f.closedCaseId}`, { token: f.operator, body: { status: 'closed' } }), 200, 'close');
      f.demoOperatorId = (await s.ctx.db('users').where({ email: 'operator@lifeline.test' }).first()).id;
      f.operatorId = (await s.api('POST', '/api/users', { token: f.admin, body: { name: 'Fuzz Target', email: 'fuzz.target@lifeline.test', role: 'operator', shift: 1, gender: 0, phone: '555 0400' } })).body.user.id;
    });

    afterAll(async () => {
      await inflight;
      console.info(report());
    });

    describe('socket payloads to ambulance.position', () => {
      const payload = fc.oneof(
        { weight: 4, arbitrary: objectBody },
        { weight: 2, arbitrary: jsonValue },
        { weight: 1, arbitrary: fc.record({ latitude: plausible.latitude, longitude: plausible.longitude, timestamp: fieldValue('timestamp'), speed: nastyNumber, heading: nastyNumber, accuracy: nastyNumber }, { requiredKeys: ['latitude', 'longitude'] }) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, 'x'.repeat(200_000), new Uint8Array(70_000), [1, 2, 3], { latitude: '17', longitude: '78' }) },
      );

      /** Emits on a socket (made by `open`, remade after the server drops it); the ack, or 'dropped'. */
      function emitter(open: () => Promise<Socket<any, any>>) {
        let sock: Socket<any, any> | undefined;
        return {
          async emit(p: unknown): Promise<any> {
            if (!sock?.connected) { sock?.disconnect(); sock = await open(); }
            tried.socket += 1;
            try {
              return await sock.timeout(3000).emitWithAck('ambulance.position', p);
            } catch {
              // Over the socket's message size limit the server drops the connection instead of answering.
              if (sock.connected) throw new Error(`no answer to ${JSON.stringify(p)?.slice(0, 200)}`);
              return 'dropped';
            }
          },
          close: () => sock?.disconnect(),
        };
      }

      it('a driver socket: every payload is acknowledged with ok or a useful error, and a refusal writes nothing', async () => {
        const driver = emitter(() => s.socket({ driverToken: f.driver }));
        try {
          count(await assertProperty(fc.asyncProperty(payload, oneAtATime(async (p) => {
            await settle();
            const ack = await driver.emit(p);
            const what = JSON.stringify(p)?.slice(0, 300) ?? String(p);
            const fail = (why: string): never => { throw new Error(`${why}\n  payload: ${what}\n  ack: ${JSON.stringify(ack)?.slice(0, 300)}`); };
            if (ack === 'dropped' || ack?.ok !== true) {
              if (ack !== 'dropped') {
                if (typeof ack?.error !== 'string' || ack.error.length < 5 || STACK.test(ack.error)) fail('an ack without a useful error');
              }
              await expectUnchanged(fail);
            }
          })), { numRuns: SOCKET_RUNS, interruptAfterTimeLimit: Math.max(2000, timeLeft() / 8), markInterruptAsFailure: false }));
        } finally {
          await inflight;
          driver.close();
        }
      }, 120_000);

      it('staff and viewer sockets: every payload is refused and writes nothing', async () => {
        const sockets = [emitter(() => s.socket({ token: f.operator })), emitter(() => s.socket({ trackToken: f.viewer }))];
        try {
          count(await assertProperty(fc.asyncProperty(fc.constantFrom(0, 1), payload, oneAtATime(async (i, p) => {
            await settle();
            const ack = await sockets[i].emit(p);
            const fail = (why: string): never => { throw new Error(`${why}: ${JSON.stringify(ack)}`); };
            if (ack !== 'dropped') expect(ack).toEqual({ ok: false, error: 'Only a driver link may send positions' });
            await expectUnchanged(fail);
          })), { numRuns: Math.max(20, opts.runs * 2), interruptAfterTimeLimit: Math.max(1000, timeLeft() / 16), markInterruptAsFailure: false }));
        } finally {
          await inflight;
          for (const sock of sockets) sock.close();
        }
      }, 60_000);
    });

    describe('every route, as operator, admin and anonymous', () => {
      /** Real ids for a parameter, so that bodies reach the service; never the demo staff accounts. */
      const realIds = (routePath: string, param: string): string[] => {
        if (routePath.startsWith('/api/users/')) return [String(f.operatorId), '999999'];
        if (param === 'caseId' || routePath.startsWith('/api/cases/')) return [f.caseId, f.closedCaseId, f.caseId.toUpperCase()];
        return ['1', '2', '3', '999999'];
      };

      it('covers the routes the router serves', () => {
        expect(servedRoutes(s).map((r) => `${r.method} ${r.path}`).sort()).toEqual(Object.keys(access).filter((k) => !k.startsWith('socket:')).sort());
      });

      for (const as of ['operator', 'admin', 'anonymous'] as const) {
        it(`never a 5xx, a stack trace, a vague error or a write on a refusal (${as})`, async () => {
          const routes = servedRoutes(s);
          for (const [i, route] of routes.entries()) {
            // What is left of the budget, shared by the routes and callers still to go.
            const share = as === 'operator' ? 3 : as === 'admin' ? 2 : 1;
            const budget = (timeLeft() - 1000) / (routes.length - i + (share - 1) * routes.length) ;
            // Fresh sessions per route: sign-out ends them.
            const token = as === 'anonymous' ? undefined : await s.signIn(as);
            const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
            const request = fc.record({
              method: methods(route.method),
              params: fc.tuple(...names.map((n) => param(() => realIds(route.path, n)))),
              query: queryString,
              body: rawBody(templates(f)[`${route.method} ${route.path}`]),
              link: route.path.startsWith('/api/location/') ? fc.constantFrom('', f.locationToken, f.viewer) : fc.constantFrom('', f.viewer, f.driver),
              idempotencyKey: fc.option(fc.oneof(
                // Any value a client can send in a header (visible ASCII and Latin-1, spaces).
                fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c)), maxLength: 260 }),
                fc.constantFrom('', ' ', 'a'.repeat(201), 'key-1', '\tkey'),
              ), { freq: 6 }),
            });
            const property = fc.asyncProperty(request, oneAtATime(async (r) => {
              let p = route.path;
              // The demo operator signs in for the next routes: its account is not edited or deleted here.
              const params = r.params.map((v) => (route.path.startsWith('/api/users/') && v === String(f.demoOperatorId) ? String(f.operatorId) : v));
              names.forEach((n, j) => { p = p.replace(`:${n}`, params[j]); });
              let query = r.query.replace(/__LINK__/g, r.link);
              // Link routes get a live token in `t` most of the time, so that their bodies reach the service.
              if (r.link && /track|position|location/.test(route.path) && !/[?&]t=/.test(query)) query += `${query ? '&' : '?'}t=${r.link}`;
              const req: Sent = { method: r.method, url: p + query, as, body: r.body, idempotencyKey: r.idempotencyKey };
              const bearer = route.path === '/api/auth/signout' && token ? await s.signIn(as as 'operator' | 'admin') : token;
              await settle();
              await check(req, await send(req, bearer));
            }));
            // The floor first, never cut short: what the fuzzer covers does not depend on the machine's speed.
            await assertProperty(property, { numRuns: FLOOR_RUNS });
            tried.floor += FLOOR_RUNS;
            if (budget < 200) { tried.routesLeftOut += 1; continue; }
            count(await assertProperty(property, { numRuns: opts.runs, interruptAfterTimeLimit: budget, markInterruptAsFailure: false }));
          }
        }, 150_000);
      }
    });

    describe('afterwards', () => {
      it('the server still answers health, and a staff member still works', async ({ annotate }) => {
        await inflight;
        await annotate(report());
        expect(await s.api('GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
        const token = await s.signIn('operator');
        expect((await s.api('GET', '/api/cases', { token })).status).toBe(200);
        // Every route, as each caller, had its floor inputs sent (3 callers × the served routes × FLOOR_RUNS).
        expect(tried.floor).toBe(3 * servedRoutes(s).length * FLOOR_RUNS);
        expect(tried.http).toBeGreaterThanOrEqual(tried.floor);
      });
    });
  });
}

if (onPostgresPass()) {
  // TEST_ENGINE=postgres (the second pass of npm test): the server is on PostgreSQL already.
  // Trimmed there to two thirds of the budget, to keep both passes of .ci/run within 15 minutes.
  fuzzSuite('on PostgreSQL', { env: {}, budgetMs: (BUDGET_MS * 2) / 3, runs: Math.max(5, Math.round(RUNS / 2)) });
} else if (PG_URL) {
  // Both databases within the same minute: two thirds of the time on SQLite (the default), a third on Postgres.
  fuzzSuite('on SQLite', { env: {}, budgetMs: (BUDGET_MS * 2) / 3, runs: RUNS });
  const url = withSchema(PG_URL, `lifeline_fuzz_${process.pid}_${Date.now()}`);
  fuzzSuite('on PostgreSQL', {
    env: { DATABASE_URL: url },
    budgetMs: BUDGET_MS / 3,
    runs: Math.max(5, Math.round(RUNS / 2)),
    dropSchema: () => dropSchema(url),
  });
} else {
  // TEST_ENGINE=sqlite (the first pass of npm test, a PostgreSQL pass follows) or no PostgreSQL at all.
  fuzzSuite('on SQLite', { env: {}, budgetMs: BUDGET_MS, runs: RUNS });
}
