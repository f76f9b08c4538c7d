// npm run simulate: moves the fleet around the city through the real position API, so a new
// user sees a live map at once. Busy ambulances drive towards their case's patient.
import { parseArgs } from 'node:util';
import type { AmbulanceDto, CaseDto, LatLon } from '../realtime-server/contract';
import { distanceMeters, formatDistance } from '../realtime-server/contract/geo';
import { type Vehicle, step } from './simulator/motion';

const HELP = `Usage: npm run simulate -- [options]   (with npm start running)

Moves the ambulances along plausible paths around the city at real speeds by posting
positions to POST /api/ambulances/{id}/position as the demo operator. Free ambulances
wander; busy ones drive towards their case's shared patient location and wait there.
An ambulance whose crew reports its own position (driver link) is left to them: the server
refuses staff positions for it (409) while it does.

Options:
  --url URL        the running Lifeline server (default http://127.0.0.1:3000, or PUBLIC_URL)
  --count N        how many ambulances to move (default: all)
  --rate HZ        positions per second per ambulance (default 0.5; staff positions are limited
                   like links, LINK_LIMIT_PER_MIN a minute per ambulance: 120 means at most 2)
  --speed KMH      cruising speed of an ambulance on a call (default 45)
  --radius KM      free ambulances stay within this distance of the centre (default 8)
  --duration S     stop after S seconds (default: run until Ctrl-C)
  --email, --username, --phone   the staff account to post as (default: the demo operator)
  --help           this text`;

const { values: o } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.PUBLIC_URL ?? 'http://127.0.0.1:3000' },
    count: { type: 'string' },
    rate: { type: 'string', default: '0.5' },
    speed: { type: 'string', default: '45' },
    radius: { type: 'string', default: '8' },
    duration: { type: 'string' },
    email: { type: 'string', default: 'operator@lifeline.test' },
    username: { type: 'string', default: 'Operator' },
    phone: { type: 'string', default: '5550101' },
    help: { type: 'boolean', default: false },
  },
});
if (o.help) {
  console.log(HELP);
  process.exit(0);
}

const num = (name: string, v: string | undefined, min: number, max: number) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) {
    console.error(`--${name} must be a number from ${min} to ${max}`);
    process.exit(2);
  }
  return n;
};
const base = o.url.replace(/\/+$/, '');
const rate = num('rate', o.rate, 0.05, 20);
const speedKmh = num('speed', o.speed, 5, 150);
const radiusM = num('radius', o.radius, 0.5, 100) * 1000;
const count = o.count === undefined ? Infinity : num('count', o.count, 1, 10_000);
const durationMs = o.duration === undefined ? Infinity : num('duration', o.duration, 1, 7 * 86400) * 1000;

let token = '';
async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json().catch(() => ({}))) as T & { error?: string };
  if (res.status === 401 && path !== '/api/auth/signin') {
    await signIn();
    return api(method, path, body);
  }
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error ?? ''}`);
  return data;
}

async function signIn() {
  token = '';
  token = (await api<{ token: string }>('POST', '/api/auth/signin', { email: o.email, username: o.username, phone: o.phone })).token;
}

const fleet = new Map<number, Vehicle & { plate: string }>();
let targets = new Map<number, { caseId: string; at: LatLon }>();
let centre: LatLon = { latitude: 17.385, longitude: 78.4867 };

/** Reads the fleet and which ambulance is on which located case. */
async function refresh() {
  const [{ ambulances }, { cases }] = await Promise.all([
    api<{ ambulances: AmbulanceDto[] }>('GET', '/api/ambulances'),
    api<{ cases: CaseDto[] }>('GET', '/api/cases'),
  ]);
  const located = ambulances.filter((a) => a.location).slice(0, count);
  if (fleet.size === 0 && located.length) {
    centre = {
      latitude: located.reduce((s, a) => s + a.location!.latitude, 0) / located.length,
      longitude: located.reduce((s, a) => s + a.location!.longitude, 0) / located.length,
    };
  }
  const ids = new Set(located.map((a) => a.id));
  for (const id of fleet.keys()) if (!ids.has(id)) fleet.delete(id);
  for (const a of located) {
    if (!fleet.has(a.id)) fleet.set(a.id, { plate: a.license_plate, position: { latitude: a.location!.latitude, longitude: a.location!.longitude }, heading: Math.random() * 360 });
  }
  targets = new Map(
    cases
      .filter((c) => c.status === 'active' && c.ambulance_id != null && c.latitude != null && c.longitude != null)
      .map((c) => [c.ambulance_id!, { caseId: c.id, at: { latitude: c.latitude!, longitude: c.longitude! } }]),
  );
}

let sent = 0;
let failed = 0;
const started = Date.now();
let last = Date.now();

async function tick() {
  const now = Date.now();
  const dt = Math.max(0.05, (now - last) / 1000);
  last = now;
  await Promise.all([...fleet].map(async ([id, v]) => {
    const next = step(v, { dt, speedKmh, target: targets.get(id)?.at, centre, radiusM, random: Math.random });
    fleet.set(id, { ...v, ...next });
    try {
      await api('POST', `/api/ambulances/${id}/position`, {
        latitude: Number(next.position.latitude.toFixed(7)),
        longitude: Number(next.position.longitude.toFixed(7)),
        heading: Math.round(next.heading),
        speed: Number(next.speedMps.toFixed(2)),
        timestamp: now,
      });
      sent++;
    } catch (err) {
      failed++;
      if (failed <= 5 || failed % 100 === 0) console.warn(`  position for ${v.plate} refused: ${(err as Error).message}`);
    }
  }));
}

function report() {
  const s = Math.round((Date.now() - started) / 1000);
  const busy = [...targets].filter(([id]) => fleet.has(id)).map(([id, t]) => `${fleet.get(id)!.plate} → case ${t.caseId.slice(0, 8)} ${formatDistance(distanceMeters(fleet.get(id)!.position, t.at))} away`);
  console.log(`t=${s}s  ${sent} positions sent (${(sent / Math.max(1, s)).toFixed(1)}/s), ${failed} refused; ${fleet.size} moving${busy.length ? `; on calls: ${busy.join(', ')}` : ''}`);
}

try {
  await signIn();
  await refresh();
} catch (err) {
  console.error(`Cannot reach Lifeline at ${base}: ${(err as Error).message}\nStart it with \`npm start\` first (or pass --url).`);
  process.exit(1);
}
console.log(`Simulating ${fleet.size} ambulances at ${base}: ${rate} positions/s each, ${speedKmh} km/h on calls, within ${radiusM / 1000} km of ${centre.latitude.toFixed(4)}, ${centre.longitude.toFixed(4)}. Ctrl-C stops.`);

const timers = [
  setInterval(() => void tick(), 1000 / rate),
  setInterval(() => void refresh().catch((err) => console.warn(`refresh failed: ${(err as Error).message}`)), 10_000),
  setInterval(report, 10_000),
];
const stop = () => {
  for (const t of timers) clearInterval(t);
  report();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
if (Number.isFinite(durationMs)) setTimeout(stop, durationMs);
