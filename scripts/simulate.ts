// npm run simulate: moves the fleet around the city through the real position API, so a new
// user sees a live map at once. Busy units drive their call's life, each its own (a call may
// have several): en route to the patient, on scene, sometimes to a hospital (a destination
// chosen through the API, now and then a pre-alert), a handover there with a long tail, then
// clear; a responder car never conveys (on scene until its call's ambulance is there, then clear).
import { parseArgs } from 'node:util';
import type {
  AmbulanceDto, AssignmentDto, CaseDto, DeviceIdentityResponse, HospitalDto, HospitalSuggestionsResponse, LatLon, UnitStatusAck, UnitStep,
} from '../realtime-server/contract';
import { ASSIGNMENT_STATUSES } from '../realtime-server/contract/callLife';
import { distanceMeters, formatDistance } from '../realtime-server/contract/geo';
import {
  type Hospital, PACE_MINUTES, PREALERT_SHARE, type SimJob, asHospital, callJobs, chooseDestination, crewOnScene, destination, handoverWaitS,
  nearestHospital, needsFor, nextStep, prealertBody,
} from './simulator/callLife';
import { type Vehicle, step } from './simulator/motion';
import { type DeviceRequest, PROTOCOLS, type SimProtocol, batteryAt, osmandRequest, owntracksRequest } from './simulator/devices';

const HELP = `Usage: npm run simulate -- [options]   (with npm start running)

Moves the ambulances along plausible paths around the city at real speeds by posting
positions to POST /api/ambulances/{id}/position as the demo operator. Free ambulances
wander. A dispatched one drives its call's life, reported through
POST /api/ambulances/{id}/unit-status: after the turnout it goes en route towards the
case's shared patient location, is on scene on arrival (a case with no shared location:
after the on-scene time), then after the on-scene time either clears (treated on scene)
or takes the patient to hospital: it asks GET /api/hospitals/suggestions from the scene
with the needs of the call's emergency type (Stroke: stroke, Heart Attack: pci, Accident
and Injury: trauma), sets the first as the destination
(POST /api/cases/{id}/assignments/{assignmentId}/destination, reason closest, or specialty
when a closer hospital lacks the need), reports transporting, sends an ATMIST pre-alert for
about one in ten (--prealert; POST …/prealert, the activation from the type), drives to that
hospital, is at hospital on arrival, hands over after a wait with a long tail (most about
--at-hospital, about 1 in 4 over twice it, a few over four times: the NHS's 15, 30 and 60
minutes at that pace), and clears --after-handover later; the ambulance is then free
again. A destination a dispatcher or the crew set is where it goes. On a server with no
hospitals it drives to the nearest of a few built-in points and sets none.
A call with several units (a responder car and an ambulance, a second ambulance): each
drives its own life as above and the case is resolved when the last one clears. A unit that
cannot convey (a responder car) never reports transporting or at hospital: on scene it
waits until an ambulance of its call is on scene too, then clears after the on-scene time.
An ambulance whose crew reports its own position (driver link) is left to them: the server
refuses staff positions for it (409) while it does, and the simulator then reports no
steps for it either.

With --protocol osmand or owntracks the ambulances report like phones running a GPS app
instead: the simulator signs in as the demo admin, issues each ambulance a device id
(POST /api/ambulances/{id}/device, which REPLACES any device id a real phone was set up
with), and sends every position as that app would: OsmAnd as
GET /api/devices/osmand?id=…&lat=…&lon=…&speed=<knots>…, OwnTracks as
POST /api/devices/owntracks with HTTP Basic (plate, device id) and vel in km/h. Steps are
still reported as staff.

Options:
  --url URL        the running Lifeline server (default http://127.0.0.1:3000, or PUBLIC_URL)
  --protocol P     how positions are sent: staff (default: the position API as staff),
                   osmand (Traccar Client's protocol) or owntracks (OwnTracks HTTP mode)
  --count N        how many ambulances to move (default: all)
  --rate HZ        positions per second per ambulance (default 0.5; staff positions are limited
                   like links, LINK_LIMIT_PER_MIN a minute per ambulance: 120 means at most 2)
  --speed KMH      cruising speed of an ambulance on a call (default 45)
  --radius KM      free ambulances stay within this distance of the centre (default 8)
  --turnout S      seconds a dispatched crew stands before going en route (default 5)
  --on-scene S     seconds on scene before transporting or clearing (default 20)
  --at-hospital S  seconds that stand for a 15-minute handover: the typical wait at hospital
                   before handover, each drawn with a long tail (default 15: a minute a second)
  --after-handover S  seconds from handover to clear (default 5)
  --transport P    share of calls taken to hospital, 0 to 1 (default 0.6)
  --prealert P     share of transports that send a pre-alert, 0 to 1 (default 0.1)
  --duration S     stop after S seconds (default: run until Ctrl-C)
  --email, --username, --phone   the staff account to post as (default: the demo operator;
                   the demo admin with --protocol osmand or owntracks, which issue device ids)
  --help           this text`;

const { values: o } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.PUBLIC_URL ?? 'http://127.0.0.1:3000' },
    protocol: { type: 'string', default: 'staff' },
    count: { type: 'string' },
    rate: { type: 'string', default: '0.5' },
    speed: { type: 'string', default: '45' },
    radius: { type: 'string', default: '8' },
    duration: { type: 'string' },
    turnout: { type: 'string', default: '5' },
    'on-scene': { type: 'string', default: '20' },
    'at-hospital': { type: 'string', default: '15' },
    'after-handover': { type: 'string', default: '5' },
    transport: { type: 'string', default: '0.6' },
    prealert: { type: 'string', default: String(PREALERT_SHARE) },
    email: { type: 'string' },
    username: { type: 'string' },
    phone: { type: 'string' },
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
const life = {
  turnoutS: num('turnout', o.turnout, 0, 3600),
  onSceneS: num('on-scene', o['on-scene'], 0, 3600),
  atHospitalS: num('at-hospital', o['at-hospital'], 0, 3600),
  afterHandoverS: num('after-handover', o['after-handover'], 0, 3600),
};
const transportShare = num('transport', o.transport, 0, 1);
const prealertShare = num('prealert', o.prealert, 0, 1);
if (!(PROTOCOLS as readonly string[]).includes(o.protocol)) {
  console.error(`--protocol must be one of ${PROTOCOLS.join(', ')}`);
  process.exit(2);
}
const protocol = o.protocol as SimProtocol;
const asDevice = protocol !== 'staff';
// Issuing device ids takes an admin.
const account = asDevice
  ? { email: o.email ?? 'admin@lifeline.test', username: o.username ?? 'Admin', phone: o.phone ?? '5550100' }
  : { email: o.email ?? 'operator@lifeline.test', username: o.username ?? 'Operator', phone: o.phone ?? '5550101' };

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
  token = (await api<{ token: string }>('POST', '/api/auth/signin', account)).token;
}

/** Each ambulance's device id and starting battery (--protocol osmand or owntracks), issued when it is first seen. */
const devices = new Map<number, { id: string; battery: number }>();

async function sendAsDevice(req: DeviceRequest) {
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
  if (!res.ok) {
    const data = (await res.json().catch(() => ({}))) as { error?: string };
    throw new Error(`${req.method} ${new URL(req.url).pathname}: ${res.status} ${data.error ?? ''}`);
  }
}

const fleet = new Map<number, Vehicle & { plate: string }>();
/** Each busy unit's part in its call, by ambulance id (a call with several units has a job per unit). */
let jobs = new Map<number, SimJob>();
/** Whether each call goes to hospital, decided once per case. */
const hospitalFor = new Map<string, Hospital | null>();
/** The server's hospitals by id, read with the fleet: a unit's destination is one of them. */
let hospitals = new Map<number, Hospital>();
/** Ambulances whose crew reports itself (its staff positions are refused): no steps for them. */
const crewDriven = new Set<number>();
/** Ambulances with a step on its way to the server. */
const stepping = new Set<number>();
let steps = 0;
let centre: LatLon = { latitude: 17.385, longitude: 78.4867 };

const rank = (s: AssignmentDto['status']) => ASSIGNMENT_STATUSES.indexOf(s);

/** Where a call's patient goes (null: treated on scene), decided once per case. */
function hospitalOf(c: CaseDto): Hospital | null {
  const patient = c.latitude != null && c.longitude != null ? { latitude: c.latitude, longitude: c.longitude } : null;
  if (!hospitalFor.has(c.id)) hospitalFor.set(c.id, Math.random() < transportShare ? nearestHospital(patient ?? centre) : null);
  return hospitalFor.get(c.id) ?? null;
}

/** Reads the fleet and which ambulance is on which located case. */
async function refresh() {
  const [{ ambulances }, { cases }, listed] = await Promise.all([
    api<{ ambulances: AmbulanceDto[] }>('GET', '/api/ambulances'),
    api<{ cases: CaseDto[] }>('GET', '/api/cases'),
    api<{ hospitals: HospitalDto[] }>('GET', '/api/hospitals'),
  ]);
  hospitals = new Map(listed.hospitals.map((h) => [h.id, asHospital(h)]));
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
    if (asDevice && !devices.has(a.id)) {
      const { device_id: id } = await api<DeviceIdentityResponse>('POST', `/api/ambulances/${a.id}/device`);
      devices.set(a.id, { id, battery: 60 + Math.random() * 40 });
    }
    if (!fleet.has(a.id)) fleet.set(a.id, { plate: a.license_plate, position: { latitude: a.location!.latitude, longitude: a.location!.longitude }, heading: Math.random() * 360 });
  }
  const next = new Map<number, SimJob>();
  for (const c of cases) {
    if (c.status !== 'active') continue;
    // Every open unit of the call, each driven on its own.
    for (const [id, fresh] of callJobs(c, hospitalOf(c), hospitals)) {
      const held = jobs.get(id);
      // A step taken since this list was read is kept (steps only go forward).
      next.set(id, held && held.caseId === c.id && rank(held.status) > rank(fresh.status) ? held : fresh);
    }
  }
  jobs = next;
}

/**
 * A unit leaving the scene with its patient: the destination the server suggests from the scene
 * for the call's needs, set on its assignment. Answers the job with it (unchanged on a server with
 * no hospitals, when one was set already, or when the server refused: the unit still goes).
 */
async function chooseHospital(job: SimJob, at: LatLon, plate: string): Promise<SimJob> {
  if (job.destinationSet || hospitals.size === 0) return job;
  const from = job.patient ?? at;
  const needs = needsFor(job.call.caseType);
  try {
    const { suggestions } = await api<HospitalSuggestionsResponse>('GET', `/api/hospitals/suggestions?latitude=${from.latitude}&longitude=${from.longitude}${needs.length ? `&needs=${needs.join(',')}` : ''}`);
    const chosen = chooseDestination(suggestions);
    if (!chosen) return job;
    await api('POST', `/api/cases/${job.caseId}/assignments/${job.assignmentId}/destination`, { hospital_id: chosen.hospital.id, reason: chosen.reason });
    return { ...job, hospital: chosen.hospital, destinationSet: true };
  } catch (err) {
    console.warn(`  ${plate}: destination refused: ${(err as Error).message}`);
    return job;
  }
}

/** About one transport in ten (--prealert) tells its destination what is coming: an ATMIST pre-alert. */
async function maybePrealert(job: SimJob, plate: string) {
  if (!job.destinationSet || Math.random() >= prealertShare) return;
  try {
    const { prealert } = await api<{ prealert: { activation: string } }>('POST', `/api/cases/${job.caseId}/assignments/${job.assignmentId}/prealert`, prealertBody(job.call, Math.random));
    console.log(`  ${plate}: pre-alert (${prealert.activation}) to ${job.hospital?.name} (case ${job.caseId.slice(0, 8)})`);
  } catch (err) {
    console.warn(`  ${plate}: pre-alert refused: ${(err as Error).message}`);
  }
}

/** How a step reads in the log: where a transport goes, how long the handover will take. */
function stepText(status: UnitStep, job: SimJob) {
  const where = (status === 'transporting' || status === 'at_hospital') && job.hospital ? ` ${status === 'transporting' ? 'to' : 'at'} ${job.hospital.name}` : '';
  const wait = status === 'at_hospital' ? `, handover in ${Math.round(handoverWaitS(job.assignmentId, life.atHospitalS))} s` : '';
  return `${status.replace('_', ' ')}${where}${wait}`;
}

/** Reports a busy unit's next step, if it is due (one at a time per unit). */
async function advance(id: number, v: Vehicle & { plate: string }, now: number) {
  let job = jobs.get(id);
  if (!job || crewDriven.has(id) || stepping.has(id)) return;
  const status: UnitStep | null = nextStep(job, v.position, now, life);
  if (!status) return;
  stepping.add(id);
  try {
    // Leaving with the patient: where to, first (a pre-alert needs it).
    if (status === 'transporting') job = await chooseHospital(job, v.position, v.plate);
    const { assignment } = await api<Extract<UnitStatusAck, { ok: true }>>('POST', `/api/ambulances/${id}/unit-status`, { status });
    steps++;
    console.log(`  ${v.plate}: ${stepText(status, job)} (case ${job.caseId.slice(0, 8)})`);
    if (status === 'transporting') await maybePrealert(job, v.plate);
    if (assignment.status === 'cleared') jobs.delete(id);
    else jobs.set(id, { ...job, status: assignment.status, since: now });
    // An ambulance on scene: a car of the same call waiting for it hands over from now.
    if (assignment.status === 'on_scene' && assignment.can_transport) crewOnScene(jobs, job.caseId, now);
  } catch (err) {
    // Someone else moved it (a dispatcher, the crew): the next refresh reads where it is.
    console.warn(`  ${v.plate}: ${status} refused: ${(err as Error).message}`);
    jobs.delete(id);
  } finally {
    stepping.delete(id);
  }
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
    const job = jobs.get(id);
    // A busy ambulance stands (turnout) or drives to where its call's life takes it; a free one wanders.
    const target = job ? (destination(job) ?? v.position) : undefined;
    const next = step(v, { dt, speedKmh, target, centre, radiusM, random: Math.random });
    fleet.set(id, { ...v, ...next });
    try {
      const device = devices.get(id);
      if (asDevice && device) {
        const fix = { ...next.position, heading: next.heading, speedMps: next.speedMps, at: now, battery: batteryAt(device.battery, now - started) };
        await sendAsDevice(protocol === 'osmand' ? osmandRequest(base, device.id, fix) : owntracksRequest(base, device.id, v.plate, fix));
      } else {
        await api('POST', `/api/ambulances/${id}/position`, {
          latitude: Number(next.position.latitude.toFixed(7)),
          longitude: Number(next.position.longitude.toFixed(7)),
          heading: Math.round(next.heading),
          speed: Number(next.speedMps.toFixed(2)),
          timestamp: now,
        });
      }
      sent++;
      crewDriven.delete(id);
    } catch (err) {
      failed++;
      if (/: 409 /.test((err as Error).message)) crewDriven.add(id);
      if (failed <= 5 || failed % 100 === 0) console.warn(`  position for ${v.plate} refused: ${(err as Error).message}`);
    }
    await advance(id, fleet.get(id)!, now);
  }));
}

function report() {
  const s = Math.round((Date.now() - started) / 1000);
  const busy = [...jobs].filter(([id]) => fleet.has(id)).map(([id, j]) => {
    const to = destination(j);
    return `${fleet.get(id)!.plate} ${j.status.replace('_', ' ')} (case ${j.caseId.slice(0, 8)})${to ? ` ${formatDistance(distanceMeters(fleet.get(id)!.position, to))} to go` : ''}`;
  });
  console.log(`t=${s}s  ${sent} positions sent (${(sent / Math.max(1, s)).toFixed(1)}/s), ${failed} refused, ${steps} steps reported; ${fleet.size} moving${busy.length ? `; on calls: ${busy.join(', ')}` : ''}`);
}

try {
  await signIn();
  await refresh();
} catch (err) {
  console.error(`Cannot reach Lifeline at ${base}: ${(err as Error).message}\nStart it with \`npm start\` first (or pass --url).`);
  process.exit(1);
}
console.log(`Simulating ${fleet.size} ambulances at ${base}${asDevice ? ` as ${protocol} devices` : ''}: ${rate} positions/s each, ${speedKmh} km/h on calls, within ${radiusM / 1000} km of ${centre.latitude.toFixed(4)}, ${centre.longitude.toFixed(4)}; turnout ${life.turnoutS} s, ${life.onSceneS} s on scene, ${Math.round(transportShare * 100)} % transported to ${hospitals.size ? `${hospitals.size} hospitals` : 'built-in hospital points (the server has none)'}, handover after about ${life.atHospitalS} s (for ${PACE_MINUTES} min; a long tail), clear ${life.afterHandoverS} s later, ${Math.round(prealertShare * 100)} % pre-alerted. Ctrl-C stops.`);

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
