import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type QueryClient, QueryObserver } from '@tanstack/react-query';
import pino from 'pino';
import { io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../realtime-server/config';
import { type RunningServer, startServer } from '../../../realtime-server/server';
import { DEMO } from '../../../realtime-server/testing/demoAccounts';
import { roundTrip } from '../../../realtime-server/testing/testServer';
import { sleep, waitFor } from '../../../realtime-server/testing/wait';
import type { AmbulanceDto, CaseDto, HospitalDto } from '../api/contract';
import { CASE_COUNTS_KEY, queries } from '../api/queries';
import { createQueryClient } from '../api/queryClient';
import { saveSession } from '../auth/session';
import { historyChangesOf } from './historyChanges';
import { connectLiveCache } from './liveCache';
import type { ConnectionState, LiveSocket } from './socket';
import { memoryStorage } from '../testing/memoryStorage';

/**
 * The web's live cache, in Node: the same `connectLiveCache`, a real @tanstack/react-query
 * QueryClient with the app's own query factories (apiFetch with the operator's token), a
 * real socket.io-client and a real server. A TCP proxy between them plays the network.
 */

const realFetch = globalThis.fetch;
/** A real server and socket reconnecting: the waits here are real time. */
const CONVERGE_MS = 30_000;

/** The browser session the app's apiFetch reads its bearer token from. */
function signInAs(token: string) {
  vi.stubGlobal('localStorage', memoryStorage({}));
  saveSession({ token, expiresAt: new Date(Date.now() + 3600_000).toISOString(), user: { id: 2, email: DEMO.operator.email, role: 'operator', username: DEMO.operator.username } });
}

const byId = <T extends { id: string | number }>(list: T[] | undefined) => [...(list ?? [])].sort((a, b) => String(a.id).localeCompare(String(b.id)));
const idsAndVersions = (list: { id: string | number; version: number }[] | undefined) => byId(list).map((x) => `${x.id}@${x.version}`);

describe('connectLiveCache against a scripted socket (the refetch race, deterministic)', () => {
  /** What the scripted server answers; with `hold`, fetches wait in `pending` until answered. */
  let data: { cases: CaseDto[]; ambulances: AmbulanceDto[] };
  let hold: boolean;
  let pending: { url: string; resolve: (body: unknown) => void }[];
  let qc: QueryClient;
  let socket: EventEmitter;
  let unhook: () => void;
  const observers: (() => void)[] = [];
  /** Every URL fetched, in order. */
  let fetched: string[];
  /** The reconnect's delayed refetches, run by the test (the injected timer). */
  let timers: { fn: () => void; ms: number; cancelled: boolean }[];
  /** The injected Math.random. */
  let randomValue: number;

  const caseDto = (id: string, version: number, extra: Partial<CaseDto> = {}) => ({ id, version, status: 'active', description: `v${version}`, ...extra }) as CaseDto;
  const ambulanceDto = (id: number, version: number, at: string | null) =>
    ({ id, version, status: 'available', license_plate: `P${id}`, location: at ? { placeName: null, latitude: 1, longitude: 1, updated_at: at } : null }) as AmbulanceDto;
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  const bodyFor = (url: string) => (url === '/api/cases'
    ? { cases: data.cases, counts: { active: data.cases.filter((c) => c.status === 'active').length, pending: data.cases.filter((c) => c.status === 'pending').length, total: data.cases.length } }
    : url === '/api/ambulances' ? { ambulances: data.ambulances }
    : url.startsWith('/api/cases?') ? { cases: [], next_cursor: null, prev_cursor: null, total: 0, total_exact: true } : {});

  function setup(initial: typeof data, opts: { hold?: boolean } = {}) {
    data = initial;
    hold = Boolean(opts.hold);
    pending = [];
    fetched = [];
    timers = [];
    randomValue = 0.5;
    signInAs('tok');
    vi.stubGlobal('fetch', (url: string) => new Promise((resolve) => {
      fetched.push(url);
      if (!hold) return resolve(json(bodyFor(url)));
      pending.push({ url, resolve: (body) => resolve(json(body)) });
    }));
    qc = createQueryClient();
    socket = new EventEmitter();
    unhook = connectLiveCache(socket as unknown as LiveSocket, qc, () => {}, {
      random: () => randomValue,
      delay: (fn, ms) => {
        const t = { fn, ms, cancelled: false };
        timers.push(t);
        return () => { t.cancelled = true; };
      },
    });
    for (const q of [queries.cases(), queries.ambulances()]) observers.push(new QueryObserver(qc, q as any).subscribe(() => {}));
  }
  /** Answers every held fetch of `url` with `body`. */
  async function answer(url: string, body: unknown) {
    await waitFor(() => pending.some((f) => f.url === url), `a fetch of ${url}`, 2000);
    for (const f of pending.filter((x) => x.url === url)) {
      pending.splice(pending.indexOf(f), 1);
      f.resolve(body);
    }
    await sleep(20);
  }
  /** Lets every fetch run to its end (nothing held, nothing on its way). */
  async function settle() {
    hold = false;
    for (const f of pending.splice(0)) f.resolve(bodyFor(f.url));
    await waitFor(() => qc.isFetching() === 0, 'the fetches to end', 2000);
    await sleep(20);
  }
  /** A reconnect: the socket drops and comes back; the delayed refetch is run at once (its wait is checked apart). */
  function reconnect() {
    socket.emit('disconnect');
    socket.emit('connect');
    const t = timers.at(-1);
    expect(t && !t.cancelled).toBe(true);
    t!.fn();
  }
  const cases = () => qc.getQueryData<CaseDto[]>(queries.cases().queryKey);
  const ambulances = () => qc.getQueryData<AmbulanceDto[]>(queries.ambulances().queryKey);

  afterEach(() => {
    unhook?.();
    observers.splice(0).forEach((stop) => stop());
    qc?.clear();
    vi.unstubAllGlobals();
  });

  it('a refetch answered with an older snapshot keeps the updates, deletions and creations heard meanwhile', async () => {
    setup({ cases: [caseDto('a', 1), caseDto('b', 1)], ambulances: [] });
    socket.emit('connect');
    await settle();
    expect(idsAndVersions(cases())).toEqual(['a@1', 'b@1']);
    // A reconnect: the lists are refetched; while the answer is on its way, events come.
    hold = true;
    reconnect();
    await waitFor(() => pending.some((f) => f.url === '/api/cases'), 'the refetch', 2000);
    socket.emit('case.updated', caseDto('a', 2));
    socket.emit('case.deleted', { id: 'b' });
    socket.emit('case.created', caseDto('c', 1));
    expect(idsAndVersions(cases())).toEqual(['a@2', 'c@1']);
    // The snapshot was read before those commits.
    await answer('/api/cases', { cases: [caseDto('a', 1), caseDto('b', 1)] });
    expect(idsAndVersions(cases())).toEqual(['a@2', 'c@1']);
    // A snapshot newer than what was heard wins as a whole.
    data.cases = [caseDto('a', 5), caseDto('c', 1), caseDto('d', 1)];
    reconnect();
    await settle();
    expect(idsAndVersions(cases())).toEqual(['a@5', 'c@1', 'd@1']);
  });

  it('drops a late event older than the cached row, and never brings a deleted row back', async () => {
    setup({ cases: [caseDto('a', 3), caseDto('b', 1)], ambulances: [ambulanceDto(1, 4, '2026-01-01T00:00:10.000Z')] });
    socket.emit('connect');
    await settle();
    socket.emit('case.updated', caseDto('a', 2, { description: 'stale' }));
    expect(cases()!.find((c) => c.id === 'a')).toMatchObject({ version: 3, description: 'v3' });
    socket.emit('case.deleted', { id: 'b' });
    socket.emit('case.updated', caseDto('b', 2));
    socket.emit('case.created', caseDto('b', 1));
    expect(idsAndVersions(cases())).toEqual(['a@3']);
    socket.emit('ambulance.updated', ambulanceDto(1, 3, null));
    expect(ambulances()![0].version).toBe(4);
    // A newer row whose position is older than the one heard keeps the newer position.
    socket.emit('ambulance.position', { positions: [{ ambulanceId: 1, latitude: 9, longitude: 9, accuracy: null, heading: null, speed: null, recorded_at: '2026-01-01T00:00:30.000Z' }] });
    socket.emit('ambulance.updated', { ...ambulanceDto(1, 5, '2026-01-01T00:00:20.000Z'), status: 'maintenance' });
    expect(ambulances()![0]).toMatchObject({ version: 5, status: 'maintenance', location: { latitude: 9, updated_at: '2026-01-01T00:00:30.000Z' } });
  });

  it('keeps Manage Hospitals live: an edit or a diversion replaces the row in name order, a deleted one never comes back', async () => {
    setup({ cases: [], ambulances: [] });
    socket.emit('connect');
    await settle();
    const hospital = (id: number, name: string, status: HospitalDto['status'] = 'open') =>
      ({ id, name, status, status_reason: null, capabilities: [], has_link: false }) as unknown as HospitalDto;
    const key = queries.hospitals().queryKey;
    qc.setQueryData<HospitalDto[]>(key, [hospital(1, 'Alder'), hospital(2, 'Cedar')]);
    socket.emit('hospital.updated', hospital(2, 'Cedar', 'diversion'));
    socket.emit('hospital.updated', hospital(3, 'Birch'));
    expect(qc.getQueryData<HospitalDto[]>(key)!.map((h) => `${h.id}:${h.status}`)).toEqual(['1:open', '3:open', '2:diversion']);
    socket.emit('hospital.deleted', { id: 3 });
    socket.emit('hospital.updated', hospital(3, 'Birch'));
    expect(qc.getQueryData<HospitalDto[]>(key)!.map((h) => h.id)).toEqual([1, 2]);
  });

  it('marks a report shown nowhere stale on a call change, without asking for it', async () => {
    setup({ cases: [caseDto('a', 1)], ambulances: [] });
    socket.emit('connect');
    await settle();
    const key = ['reports', 'today', '2026-11-24', 'UTC'];
    qc.setQueryData(key, { calls: 1 });
    socket.emit('case.updated', caseDto('a', 2));
    // Asked for when next shown; how often a shown one is asked for is in reportRefresh.test.ts.
    expect(qc.getQueryState(key)?.isInvalidated).toBe(true);
    await settle();
    expect(fetched.filter((u) => u.startsWith('/api/reports'))).toEqual([]);
  });

  it('leaves a report of a period wholly past alone: a call taken now cannot change it', async () => {
    setup({ cases: [caseDto('a', 1)], ambulances: [] });
    socket.emit('connect');
    await settle();
    const past = queries.reports.responseTimes({ from: '2025-01-01', to: '2025-02-01', tz: 'UTC' }).queryKey;
    const open = queries.reports.responseTimes({ from: '2025-01-01', to: '2999-01-01', tz: 'UTC' }).queryKey;
    qc.setQueryData(past, { calls: 1 } as never, { updatedAt: 0 });
    qc.setQueryData(open, { calls: 1 } as never, { updatedAt: 0 });
    socket.emit('case.updated', caseDto('a', 2));
    expect(qc.getQueryState(open)?.isInvalidated).toBe(true);
    expect(qc.getQueryState(past)?.isInvalidated).toBe(false);
  });

  it('on a reconnect refetches the board and the fleet only, after the random wait (0–3 s), and marks history unknown', async () => {
    setup({ cases: [caseDto('a', 1)], ambulances: [] });
    const historyKey = queries.caseHistory({ q: 'x' }).queryKey;
    observers.push(new QueryObserver(qc, queries.caseHistory({ q: 'x' }) as any).subscribe(() => {}));
    socket.emit('connect');
    await settle();
    expect(timers).toEqual([]); // the first connect refetches at once
    expect(historyChangesOf(qc).count()).toBe(0);
    const detailKey = queries.caseDetail('a').queryKey;
    qc.setQueryData(detailKey, { case: caseDto('a', 1), assignments: [] });
    fetched = [];
    for (const [r, ms] of [[0, 0], [0.5, 1500], [0.9999, 2999]] as const) {
      randomValue = r;
      socket.emit('disconnect');
      socket.emit('connect');
      expect(timers.at(-1)!.ms).toBe(ms);
    }
    // Only the latest reconnect's refetch stays scheduled; nothing is fetched before it runs.
    expect(timers.map((t) => t.cancelled)).toEqual([true, true, false]);
    await sleep(20);
    expect(fetched).toEqual([]);
    expect(historyChangesOf(qc).count()).toBeNull();
    expect(qc.getQueryState(historyKey)?.isInvalidated).toBe(false);
    // Other cached queries are stale (refetched when next shown), not refetched now.
    expect(qc.getQueryState(detailKey)?.isInvalidated).toBe(true);
    timers.at(-1)!.fn();
    await settle();
    expect(fetched.sort()).toEqual(['/api/ambulances', '/api/cases']);
  });

  it('case events patch the board and its counts and note history, never fetching a history page', async () => {
    setup({ cases: [caseDto('a', 1), caseDto('b', 1, { status: 'pending' })], ambulances: [] });
    observers.push(new QueryObserver(qc, queries.caseHistory({}) as any).subscribe(() => {}));
    socket.emit('connect');
    await settle();
    expect(qc.getQueryData(CASE_COUNTS_KEY)).toEqual({ active: 1, pending: 1, total: 2 });
    fetched = [];
    socket.emit('case.created', caseDto('c', 1, { status: 'pending' }));
    socket.emit('case.updated', caseDto('b', 2, { status: 'active' }));
    socket.emit('case.deleted', { id: 'a' });
    socket.emit('case.deleted', { id: 'a' }); // twice (a write's answer and its event): counted once
    await sleep(20);
    expect(idsAndVersions(cases())).toEqual(['b@2', 'c@1']);
    expect(qc.getQueryData(CASE_COUNTS_KEY)).toEqual({ active: 1, pending: 1, total: 2 });
    expect(historyChangesOf(qc).count()).toBe(3);
    expect(fetched).toEqual([]);
  });

  it('holds a crew\'s request for backup once, fetching nothing, and keeps it through a reconnect', async () => {
    setup({ cases: [caseDto('a', 1)], ambulances: [] });
    const backupKey = queries.backupAlerts().queryKey;
    observers.push(new QueryObserver(qc, queries.backupAlerts() as any).subscribe(() => {}));
    socket.emit('connect');
    await settle();
    fetched = [];
    const alert = { case_id: 'a', priority: 1, ambulance_id: 3, license_plate: 'P3', note: 'second patient', at: '2026-01-01T00:05:00.000Z' };
    socket.emit('backup.requested', alert);
    socket.emit('backup.requested', alert); // heard twice (another node, a replay): held once
    await sleep(20);
    expect(qc.getQueryData(backupKey)).toEqual([alert]);
    expect(fetched).toEqual([]);
    reconnect();
    await settle();
    await qc.refetchQueries({ queryKey: backupKey });
    expect(qc.getQueryData(backupKey)).toEqual([alert]);
  });

  it('fetches again when a fetch left before the socket connected (it may have missed an event)', async () => {
    setup({ cases: [], ambulances: [] }, { hold: true });
    await waitFor(() => pending.some((f) => f.url === '/api/cases'), 'the first fetch', 2000);
    socket.emit('connect'); // while the first fetch is on its way
    await answer('/api/cases', { cases: [caseDto('a', 1)] });
    await answer('/api/cases', { cases: [caseDto('a', 2)] });
    expect(idsAndVersions(cases())).toEqual(['a@2']);
    await settle();
  });
});

/** A TCP proxy playing the network between the client and the server: `cut` resets every connection and refuses new ones. */
async function startNetwork(targetPort: () => number) {
  const open = new Set<net.Socket>();
  let down = false;
  const srv = net.createServer((client) => {
    if (down) return client.destroy();
    const upstream = net.connect(targetPort(), '127.0.0.1');
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    cut() {
      down = true;
      for (const s of open) s.destroy();
      open.clear();
    },
    restore() { down = false; },
    close: () => new Promise<void>((r) => { for (const s of open) s.destroy(); srv.close(() => r()); }),
  };
}

describe('a staff client with the live cache against a real server', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-live-'));
  let server: RunningServer;
  let port = 0;
  let network: Awaited<ReturnType<typeof startNetwork>>;
  let operator = '';
  let admin = '';
  let qc: QueryClient;
  let socket: LiveSocket;
  let unhook: () => void;
  const states: ConnectionState[] = [];
  const stops: (() => void)[] = [];

  async function boot() {
    const config = loadConfig({
      DATABASE_URL: path.join(dir, 'live.sqlite'), PORT: String(port), GEOCODER_URL: 'off', PUBLIC_URL: 'http://lifeline.test',
      STATIC_DIR: path.join(dir, 'web'), LINK_LIMIT_PER_MIN: '1000000',
      // The live lists without a month of demo history (whose oldest calls the retention job may redact meanwhile).
      DEMO_HISTORY_DAYS: '0',
    });
    server = await startServer(config, { log: pino({ level: 'silent' }) });
    port = server.port;
  }

  /** Another client's call, straight to the server (not through the client's network). */
  async function other(method: string, urlPath: string, token: string | undefined, body?: unknown) {
    const send = () => realFetch(`${server.url}${urlPath}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // A kept-alive connection to the server before its restart fails once; the request never reached it.
    const res = await send().catch(send);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
  const dispatch = async (ambulanceId?: number) => {
    const res = await other('POST', '/live-location', operator, { to: 'p@example.com', status: 'active', patientName: 'Live Patient', description: 'Fall', ...(ambulanceId ? { license_plate: ambulanceId } : {}) });
    if (res.status !== 201) throw new Error(`dispatch: ${res.status} ${JSON.stringify(res.body)}`);
    return { ...(res.body.case as CaseDto), locationLink: res.body.locationLink as string };
  };
  const serverLists = async () => ({
    cases: (await other('GET', '/api/cases', operator)).body.cases as CaseDto[],
    ambulances: (await other('GET', '/api/ambulances', operator)).body.ambulances as AmbulanceDto[],
  });
  const cacheLists = () => ({
    cases: qc.getQueryData<CaseDto[]>(queries.cases().queryKey),
    ambulances: qc.getQueryData<AmbulanceDto[]>(queries.ambulances().queryKey),
  });
  const freeAmbulances = async () => (await serverLists()).ambulances.filter((a) => a.status === 'available').map((a) => a.id);
  const activeCases = async () => (await serverLists()).cases.filter((c) => c.status === 'active');

  /** The cache equals the server: the same ids at the same versions, then the same rows. */
  async function expectConverged(what: string) {
    await waitFor(async () => {
      const s = await serverLists();
      const c = cacheLists();
      return idsAndVersions(c.cases).join() === idsAndVersions(s.cases).join() && idsAndVersions(c.ambulances).join() === idsAndVersions(s.ambulances).join();
    }, `the cache to equal the server (${what})`, CONVERGE_MS).catch(async (err) => {
      const s = await serverLists();
      const c = cacheLists();
      throw new Error(`${err.message}\n cache cases ${idsAndVersions(c.cases).join()}\n server cases ${idsAndVersions(s.cases).join()}\n cache ambulances ${idsAndVersions(c.ambulances).join()}\n server ambulances ${idsAndVersions(s.ambulances).join()}\n states ${states.join()}`);
    });
    const s = await serverLists();
    const c = cacheLists();
    expect(byId(c.cases)).toEqual(byId(s.cases));
    expect(byId(c.ambulances)).toEqual(byId(s.ambulances));
    // The board patched by events is in the server's order, with the server's counts.
    expect(c.cases!.map((x) => x.id)).toEqual(s.cases.map((x) => x.id));
    expect(qc.getQueryData(CASE_COUNTS_KEY)).toEqual((await other('GET', '/api/cases', operator)).body.counts);
    return s;
  }

  let plates = 0;
  /** What other staff, patients and drivers do while this client is away. */
  async function changesByOthers(round: number) {
    const free = await freeAmbulances();
    const fresh = await dispatch(free[0]);
    await dispatch();
    const active = (await activeCases()).filter((c) => c.id !== fresh.id);
    if (active[0]) await other('PUT', `/api/cases/${active[0].id}`, operator, { status: 'closed' });
    if (active[1]) await other('DELETE', `/api/cases/${active[1].id}`, admin);
    const stillFree = (await freeAmbulances()).filter((id) => id !== free[0]);
    if (active[2] && stillFree[0]) await other('PUT', `/api/cases/${active[2].id}`, operator, { ambulance_id: stillFree[0] });
    await other('POST', `/api/location/${fresh.id}${new URL(fresh.locationLink).search}`, undefined, { latitude: 17.41, longitude: 78.47, accuracy: 9 });
    const created = await other('POST', '/api/ambulances', admin, { license_plate: `LIVE ${++plates}`, status: 'available' });
    if (created.status !== 201) throw new Error(`ambulance create: ${created.status} ${JSON.stringify(created.body)}`);
    const spare = (await freeAmbulances()).filter((id) => id !== created.body.ambulance.id);
    if (spare[0]) await other('PUT', `/api/ambulances/${spare[0]}`, operator, { status: 'maintenance' });
    if (spare[1]) await other('DELETE', `/api/ambulances/${spare[1]}`, admin);
    // Positions only while away: their live events carry no version (RELIABILITY.md).
    for (const id of (await serverLists()).ambulances.slice(0, 3).map((a) => a.id)) {
      await other('POST', `/api/ambulances/${id}/position`, operator, { latitude: 17.38 + round / 1000, longitude: 78.48 });
    }
  }

  beforeAll(async () => {
    port = 0;
    await boot();
    network = await startNetwork(() => port);
    operator = (await other('POST', '/api/auth/signin', undefined, DEMO.operator)).body.token;
    admin = (await other('POST', '/api/auth/signin', undefined, DEMO.admin)).body.token;
    signInAs(operator);
    // The app's apiFetch calls same-origin paths; here the origin is the client's side of the network.
    vi.stubGlobal('fetch', (input: string, init?: RequestInit) => realFetch(input.startsWith('/') ? network.url + input : input, init));
    qc = createQueryClient();
    for (const q of [queries.cases(), queries.ambulances()]) stops.push(new QueryObserver(qc, q as any).subscribe(() => {}));
    // openSocket's options, with this origin spelled out (Node has no page origin).
    socket = io(network.url, { auth: { token: operator }, transports: ['websocket'], reconnectionDelayMax: 5000 });
    unhook = connectLiveCache(socket, qc, (s) => states.push(s));
    await waitFor(() => states.includes('live'), 'the socket to go live', CONVERGE_MS);
    for (let i = 1; i <= 3; i++) await dispatch(i);
    await expectConverged('at start');
  }, 60_000);

  afterAll(async () => {
    unhook?.();
    stops.forEach((stop) => stop());
    socket?.disconnect();
    qc?.clear();
    vi.unstubAllGlobals();
    await network?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function away(ms: number, opts: { restart?: boolean } = {}) {
    const wentLive = states.lastIndexOf('live');
    network.cut();
    await waitFor(() => states.lastIndexOf('reconnecting') > wentLive, 'the client to notice the disconnection', 10_000);
    const until = Date.now() + ms;
    await changesByOthers(1);
    if (opts.restart) {
      await server.close();
      await boot(); // the same port and database file
      await changesByOthers(2);
    }
    // Long absences: more changes along the way.
    for (let round = 3; Date.now() < until - 20_000; round++) {
      await sleep(15_000);
      await changesByOthers(round);
    }
    await sleep(Math.max(0, until - Date.now()));
    const lostAt = states.length;
    network.restore();
    await waitFor(() => states.slice(lostAt).includes('live'), 'the socket to reconnect', 30_000);
    const s = await expectConverged(`after ${ms / 1000} s away${opts.restart ? ' across a server restart' : ''}`);
    // Live again: a change by another client arrives as an event.
    const active = s.cases.find((c) => c.status === 'active');
    if (active) await other('PUT', `/api/cases/${active.id}`, operator, { description: `seen live after ${ms} ms` });
    await dispatch();
    await expectConverged('after a change heard live');
  }

  it('a client away for 5 s ends with exactly the server state', async () => {
    await away(5000);
  }, 90_000);

  it('a client away across a server restart ends with exactly the server state', async () => {
    await away(3000, { restart: true });
  }, 120_000);

  it.skipIf(!process.env.LONG_TESTS)('a client away for 3 minutes ends with exactly the server state (LONG_TESTS=1)', async () => {
    await away(180_000);
  }, 400_000);

  it('an old event delivered late does not overwrite a newer row or bring back a deleted one', async () => {
    // An old answer: the first version of a case that has changed since.
    const old = await dispatch();
    const changed = await other('PUT', `/api/cases/${old.id}`, operator, { description: 'newer than the late event' });
    expect(changed.status).toBe(200);
    const victim = await dispatch();
    await other('DELETE', `/api/cases/${victim.id}`, admin);
    const s = await expectConverged('before the late events');
    const ambulance = s.ambulances[0];
    server.io.to('staff').emit('case.updated', old);
    server.io.to('staff').emit('case.created', victim);
    server.io.to('staff').emit('case.updated', { ...victim, version: victim.version + 10 });
    server.io.to('staff').emit('ambulance.updated', { ...ambulance, version: ambulance.version - 1, status: 'maintenance' });
    await roundTrip(socket); // the late events have reached the cache (its handlers patch it as each arrives)
    const c = cacheLists();
    expect(c.cases!.find((x) => x.id === old.id)).toMatchObject({ version: changed.body.case.version, description: 'newer than the late event' });
    expect(c.cases!.some((x) => x.id === victim.id)).toBe(false);
    expect(c.ambulances!.find((a) => a.id === ambulance.id)).toEqual(ambulance);
    await expectConverged('after the late events');
  }, 60_000);
});
