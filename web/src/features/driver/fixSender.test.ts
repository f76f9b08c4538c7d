import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import type { PositionAck } from '../../api/contract';
import { createFixSender, toDriverFix } from './fixSender';
import { type DriverFix, createPositionQueue } from './positionQueue';

const fix = (n: number): DriverFix => ({ latitude: 17 + n / 1000, longitude: 78.5, timestamp: 1_700_000_000_000 + n });
const CLOSED = 'This driver link is no longer valid: its case is closed';

function harness(opts: { socketUp?: boolean; ack?: (f: DriverFix) => PositionAck | 'timeout'; rest?: (f: DriverFix) => unknown; closed?: boolean } = {}) {
  const log: string[] = [];
  const problems: string[] = [];
  let closedCalls = 0;
  const send = createFixSender({
    viaSocket: (f) => {
      if (!opts.socketUp) return null;
      const ack = opts.ack?.(f) ?? { ok: true, latest: true };
      log.push(`socket ${f.latitude}${f.timestamp === undefined ? ' untimed' : ''}`);
      return ack === 'timeout' ? Promise.reject(new Error('operation has timed out')) : Promise.resolve(ack);
    },
    viaRest: async (f) => {
      log.push(`rest ${f.latitude}${f.timestamp === undefined ? ' untimed' : ''}`);
      return opts.rest ? opts.rest(f) : { ok: true, latest: true };
    },
    linkClosed: async () => Boolean(opts.closed),
    onClosed: () => { closedCalls += 1; },
    onProblem: (t) => problems.push(t),
  });
  return { send, log, problems, closedCalls: () => closedCalls };
}

describe('sending one driver fix', () => {
  it('goes over the socket when it is up, and over REST when it is down', async () => {
    const up = harness({ socketUp: true });
    expect(await up.send(fix(1))).toBe('sent');
    expect(up.log).toEqual(['socket 17.001']);
    const down = harness({ socketUp: false });
    expect(await down.send(fix(1))).toBe('sent');
    expect(down.log).toEqual(['rest 17.001']);
  });

  it('falls back to REST when the ack does not come, or the server failed', async () => {
    const h = harness({ socketUp: true, ack: (f) => (f.latitude === 17.001 ? 'timeout' : { ok: false, error: 'Internal server error' }) });
    expect(await h.send(fix(1))).toBe('sent');
    expect(await h.send(fix(2))).toBe('sent');
    expect(h.log).toEqual(['socket 17.001', 'rest 17.001', 'socket 17.002', 'rest 17.002']);
  });

  it('is a retry when offline (fetch throws), or when the server is busy', async () => {
    expect(await harness({ rest: () => { throw new TypeError('Failed to fetch'); } }).send(fix(1))).toBe('retry');
    expect(await harness({ rest: () => { throw new ApiError(503, 'busy'); } }).send(fix(1))).toBe('retry');
  });

  it('stops, and says the case closed, on the server\'s closed answer (socket or REST)', async () => {
    const s = harness({ socketUp: true, ack: () => ({ ok: false, error: CLOSED }) });
    expect(await s.send(fix(1))).toBe('stop');
    expect(s.closedCalls()).toBe(1);
    expect(s.log).toEqual(['socket 17.001']);
    const r = harness({ rest: () => { throw new ApiError(403, CLOSED); } });
    expect(await r.send(fix(1))).toBe('stop');
    expect(r.closedCalls()).toBe(1);
  });

  it('on another 403 asks the tracking link: closed when it is gone, else keeps the fix', async () => {
    const gone = harness({ rest: () => { throw new ApiError(403, 'This link is not valid for sending positions'); }, closed: true });
    expect(await gone.send(fix(1))).toBe('stop');
    expect(gone.closedCalls()).toBe(1);
    const still = harness({ rest: () => { throw new ApiError(403, 'This link is not valid for sending positions'); }, closed: false });
    expect(await still.send(fix(1))).toBe('retry');
    expect(still.closedCalls()).toBe(0);
    expect(still.problems).toEqual(['This link is not valid for sending positions']);
  });

  it('drops an invalid position (and says why), so the queue goes on', async () => {
    const h = harness({ socketUp: true, ack: () => ({ ok: false, error: 'latitude: must be at most 90' }) });
    expect(await h.send(fix(1))).toBe('drop');
    expect(h.problems).toEqual(['latitude: must be at most 90']);
  });

  it('sends again without its time when the device clock is ahead of the server', async () => {
    const h = harness({ socketUp: true, ack: (f) => (f.timestamp ? { ok: false, error: 'timestamp: is in the future' } : { ok: true, latest: true }) });
    expect(await h.send(fix(1))).toBe('sent');
    expect(h.log).toEqual(['socket 17.001', 'socket 17.001 untimed']);
    const r = harness({ rest: (f) => { if (f.timestamp) throw new ApiError(400, 'timestamp: is in the future'); return {}; } });
    expect(await r.send(fix(1))).toBe('sent');
    expect(r.log).toEqual(['rest 17.001', 'rest 17.001 untimed']);
  });

  it('with the queue: offline fixes wait, then go in order once back, each once', async () => {
    let online = false;
    let socketUp = false;
    const taken: number[] = [];
    const send = createFixSender({
      viaSocket: (f) => (socketUp ? (taken.push(f.latitude), Promise.resolve({ ok: true, latest: true })) : null),
      viaRest: async (f) => {
        if (!online) throw new TypeError('Failed to fetch');
        taken.push(f.latitude);
        return {};
      },
      linkClosed: async () => false,
      onClosed: () => {},
    });
    const q = createPositionQueue({ key: 'k' });
    for (let i = 1; i <= 3; i++) {
      q.push(fix(i));
      expect((await q.flush(send)).halted).toBe('retry');
    }
    online = true; // the `online` event: REST takes the first ones
    q.push(fix(4));
    socketUp = true; // the socket reconnects meanwhile
    await Promise.all([q.flush(send), q.flush(send)]);
    expect(taken).toEqual([17.001, 17.002, 17.003, 17.004]);
  });
});

describe('a device fix as the server takes it', () => {
  const position = (coords: Partial<GeolocationCoordinates>, timestamp = 1_700_000_000_123.4) => ({
    coords: { latitude: 17.4, longitude: 78.5, accuracy: 8, altitude: null, altitudeAccuracy: null, heading: null, speed: null, ...coords } as GeolocationCoordinates,
    timestamp,
  });

  it('keeps the fix time, accuracy, heading and speed', () => {
    expect(toDriverFix(position({ heading: 90, speed: 12.5 }))).toEqual({ latitude: 17.4, longitude: 78.5, accuracy: 8, heading: 90, speed: 12.5, timestamp: 1_700_000_000_123 });
  });

  it('leaves out a missing heading (stationary), a missing speed and an implausible speed', () => {
    expect(toDriverFix(position({ heading: NaN, speed: null }))).toEqual({ latitude: 17.4, longitude: 78.5, accuracy: 8, timestamp: 1_700_000_000_123 });
    expect(toDriverFix(position({ speed: 250 }))).not.toHaveProperty('speed');
    expect(toDriverFix(position({ accuracy: 250_000 })).accuracy).toBe(100_000);
  });
});
