import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { memoryStorage } from '../../testing/memoryStorage';
import { createDriverStream, initialStreamState, transition, type DriverSocket } from './driverStream';
import { type DriverFix, createPositionQueue } from './positionQueue';

const PERMISSION_DENIED = 1;
const TIMEOUT = 3;
const positionAt = (t: number, latitude = 17.4): GeolocationPosition =>
  ({ timestamp: t, coords: { latitude, longitude: 78.5, accuracy: 10, heading: null, speed: null } }) as unknown as GeolocationPosition;
const geoError = (code: number) => ({ code, PERMISSION_DENIED, message: '' }) as GeolocationPositionError;

/** A device whose answers the test gives: the first request, then the watch. */
function fakeGeolocation() {
  let first: { ok: PositionCallback; fail?: PositionErrorCallback | null } | null = null;
  let watch: { ok: PositionCallback; fail?: PositionErrorCallback | null } | null = null;
  const cleared: number[] = [];
  return {
    api: {
      getCurrentPosition: (ok: PositionCallback, fail?: PositionErrorCallback | null) => { first = { ok, fail }; },
      watchPosition: (ok: PositionCallback, fail?: PositionErrorCallback | null) => { watch = { ok, fail }; return 7; },
      clearWatch: (id: number) => { cleared.push(id); },
    },
    answerFirst: (p: GeolocationPosition) => first?.ok(p),
    failFirst: (code: number) => first?.fail?.(geoError(code)),
    move: (p: GeolocationPosition) => watch?.ok(p),
    failWatch: (code: number) => watch?.fail?.(geoError(code)),
    watching: () => watch !== null,
    cleared,
  };
}

function harness(opts: { socket?: DriverSocket | null; rest?: (fix: DriverFix) => Promise<unknown>; linkClosed?: boolean; geolocation?: boolean } = {}) {
  const storage = memoryStorage();
  const geo = fakeGeolocation();
  const rest: DriverFix[] = [];
  const stream = createDriverStream({
    queue: createPositionQueue({ key: 'q', storage }),
    storage,
    sharingKey: 'sharing',
    geolocation: opts.geolocation === false ? undefined : geo.api,
    geolocationOptions: {},
    socket: () => opts.socket ?? null,
    viaRest: async (fix) => {
      rest.push(fix);
      return opts.rest ? opts.rest(fix) : { ok: true, latest: true };
    },
    linkClosed: async () => Boolean(opts.linkClosed),
    now: () => 1_000,
  });
  return { stream, storage, geo, rest };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

describe('driver stream transitions', () => {
  const idle = initialStreamState(0);

  it('a fix no newer than the last one changes nothing', () => {
    const one = transition(idle, { type: 'fix', fix: { latitude: 1, longitude: 2 }, at: 10 });
    expect(one.lastFix).toEqual({ latitude: 1, longitude: 2 });
    expect(transition(one, { type: 'fix', fix: { latitude: 3, longitude: 4 }, at: 10 })).toBe(one);
  });

  it('a closed case is final, but a send already on its way still reports', () => {
    const closed = transition({ ...idle, pending: 3 }, { type: 'closed' });
    expect(closed).toMatchObject({ phase: { kind: 'closed' }, pending: 0 });
    for (const type of ['locating', 'sharing', 'stopped', 'unsupported'] as const) expect(transition(closed, { type })).toBe(closed);
    expect(transition(closed, { type: 'queued', pending: 2 })).toBe(closed);
    expect(transition(closed, { type: 'sent', sent: { at: 1, via: 'rest', fix: { latitude: 1, longitude: 2 } } }).lastSent?.via).toBe('rest');
  });

  it('locating clears the last problem and the no-fix note; a denied permission says how to allow it', () => {
    const troubled = { ...idle, problem: 'x', noFix: true };
    expect(transition(troubled, { type: 'locating' })).toMatchObject({ phase: { kind: 'locating' }, problem: null, noFix: false });
    expect(transition(idle, { type: 'locateFailed', denied: true }).phase).toMatchObject({ kind: 'error', hint: expect.stringContaining('Allow location') });
    expect(transition(idle, { type: 'locateFailed', denied: false }).phase).toMatchObject({ kind: 'error', message: expect.stringContaining('GPS') });
    expect(transition(idle, { type: 'watchFailed', denied: false })).toMatchObject({ phase: { kind: 'idle' }, noFix: true });
  });
});

describe('driver stream', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks once, then watches and sends every new fix over REST while the socket is down', async () => {
    const { stream, storage, geo, rest } = harness();
    stream.start();
    expect(stream.getState().phase.kind).toBe('locating');
    geo.answerFirst(positionAt(100));
    await settle();
    expect(stream.getState().phase.kind).toBe('sharing');
    expect(storage.getItem('sharing')).toBe('1');
    geo.move(positionAt(100)); // the watch's first answer repeats the fix
    geo.move(positionAt(200, 17.5));
    await settle();
    expect(rest.map((f) => f.timestamp)).toEqual([100, 200]);
    expect(stream.getState()).toMatchObject({ pending: 0, lastSent: { at: 1_000, via: 'rest', fix: { latitude: 17.5 } }, lastFix: { latitude: 17.5 } });
  });

  it('prefers the socket when it is connected', async () => {
    const emitted: DriverFix[] = [];
    const socket: DriverSocket = { connected: true, timeout: () => ({ emitWithAck: async (_e, fix) => { emitted.push(fix); return { ok: true, latest: true }; } }) };
    const { stream, geo, rest } = harness({ socket });
    stream.start();
    geo.answerFirst(positionAt(100));
    await settle();
    expect(emitted).toHaveLength(1);
    expect(rest).toHaveLength(0);
    expect(stream.getState().lastSent?.via).toBe('socket');
  });

  it('keeps a fix while offline and tries again after 5 s', async () => {
    let online = false;
    const { stream, geo, rest } = harness({ rest: async () => { if (!online) throw new TypeError('Failed to fetch'); return { ok: true }; } });
    stream.start();
    geo.answerFirst(positionAt(100));
    await settle();
    expect(stream.getState().pending).toBe(1);
    online = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(rest).toHaveLength(2);
    expect(stream.getState().pending).toBe(0);
  });

  it('stops for good when the case closes: watch ended, queue and resume flag gone', async () => {
    const closedText = 'This driver link is no longer valid: its case is closed';
    const { stream, storage, geo } = harness({ rest: async () => { throw new ApiError(410, closedText); } });
    stream.start();
    geo.answerFirst(positionAt(100));
    await settle();
    expect(stream.getState()).toMatchObject({ phase: { kind: 'closed' }, pending: 0 });
    expect(geo.cleared).toEqual([7]);
    expect(storage.getItem('sharing')).toBeNull();
    stream.start();
    expect(stream.getState().phase.kind).toBe('closed');
  });

  it('a refused permission stops the watch; a slow fix only notes it', async () => {
    const { stream, geo } = harness();
    stream.start();
    geo.answerFirst(positionAt(100));
    await settle();
    geo.failWatch(TIMEOUT);
    expect(stream.getState()).toMatchObject({ phase: { kind: 'sharing' }, noFix: true });
    geo.failWatch(PERMISSION_DENIED);
    expect(stream.getState().phase).toMatchObject({ kind: 'error', message: 'Location access is blocked for this page.' });
    expect(geo.cleared).toEqual([7]);
  });

  it('says so when the browser has no geolocation, and when the first fix fails', () => {
    const none = harness({ geolocation: false });
    none.stream.start();
    expect(none.stream.getState().phase).toEqual({ kind: 'error', message: 'Geolocation is not supported by your browser' });
    const { stream, geo } = harness();
    stream.start();
    geo.failFirst(PERMISSION_DENIED);
    expect(stream.getState().phase).toMatchObject({ kind: 'error', hint: expect.any(String) });
  });

  it('stop ends the watch and forgets the resume flag; resume starts again only with the permission granted', async () => {
    const { stream, storage, geo } = harness();
    stream.start();
    geo.answerFirst(positionAt(100));
    await settle();
    stream.stop();
    expect(stream.getState().phase.kind).toBe('idle');
    expect(storage.getItem('sharing')).toBeNull();

    storage.setItem('sharing', '1');
    const denied = { query: async () => ({ state: 'prompt' }) as PermissionStatus };
    stream.resume(denied);
    await settle();
    expect(stream.getState().phase.kind).toBe('idle');
    const granted = { query: async () => ({ state: 'granted' }) as PermissionStatus };
    stream.resume(granted);
    await settle();
    expect(stream.getState().phase.kind).toBe('locating');
  });
});
