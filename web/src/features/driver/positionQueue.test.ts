import { describe, expect, it } from 'vitest';
import { type DriverFix, type SendOutcome, createPositionQueue } from './positionQueue';

function memoryStorage(): Storage & { writes: number } {
  const items = new Map<string, string>();
  return {
    writes: 0,
    get length() { return items.size; },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem(key, value) { this.writes += 1; items.set(key, String(value)); },
  };
}

const fix = (n: number): DriverFix => ({ latitude: 17 + n / 1000, longitude: 78.5, accuracy: 5, timestamp: 1_700_000_000_000 + n * 1000 });
const n = (f: DriverFix) => Math.round((f.latitude - 17) * 1000);

/** A server that records what it took and answers from a script (default: sent). */
function server(script: SendOutcome[] = []) {
  const taken: number[] = [];
  const tried: number[] = [];
  const send = async (f: DriverFix): Promise<SendOutcome> => {
    tried.push(n(f));
    const outcome = script.shift() ?? 'sent';
    if (outcome === 'sent') taken.push(n(f));
    return outcome;
  };
  return { send, taken, tried };
}

describe('the driver position queue', () => {
  it('replays queued fixes in the order they were taken', async () => {
    const q = createPositionQueue({ key: 'k' });
    for (let i = 1; i <= 5; i++) q.push(fix(i));
    const s = server();
    expect(await q.flush(s.send)).toEqual({ sent: 5, dropped: 0, halted: null });
    expect(s.taken).toEqual([1, 2, 3, 4, 5]);
    expect(q.size).toBe(0);
  });

  it('loses nothing when a send fails: the failed fix and every later one stay, in order', async () => {
    const q = createPositionQueue({ key: 'k' });
    for (let i = 1; i <= 4; i++) q.push(fix(i));
    const s = server(['sent', 'retry']);
    expect(await q.flush(s.send)).toEqual({ sent: 1, dropped: 0, halted: 'retry' });
    expect(q.entries().map((e) => n(e.fix))).toEqual([2, 3, 4]);

    // A send that throws (network down) is a retry too.
    expect(await q.flush(async () => { throw new TypeError('Failed to fetch'); })).toEqual({ sent: 0, dropped: 0, halted: 'retry' });
    expect(q.size).toBe(3);

    q.push(fix(5));
    expect(await q.flush(s.send)).toEqual({ sent: 4, dropped: 0, halted: null });
    expect(s.taken).toEqual([1, 2, 3, 4, 5]);
  });

  it('sends nothing twice: a retry starts at the first fix not taken, and overlapping flushes are one flush', async () => {
    const q = createPositionQueue({ key: 'k' });
    for (let i = 1; i <= 3; i++) q.push(fix(i));
    const s = server(['sent', 'retry']);
    await q.flush(s.send);
    await q.flush(s.send);
    expect(s.tried).toEqual([1, 2, 2, 3]);
    expect(s.taken).toEqual([1, 2, 3]);

    // The socket reconnects and the browser says online at the same moment: one replay.
    for (let i = 4; i <= 6; i++) q.push(fix(i));
    const slow = server();
    const delayed = async (f: DriverFix) => { await new Promise((r) => setTimeout(r, 5)); return slow.send(f); };
    const [a, b] = await Promise.all([q.flush(delayed), q.flush(delayed)]);
    expect(a).toBe(b);
    expect(slow.tried).toEqual([4, 5, 6]);
  });

  it('sends a fix pushed while a flush runs, after the ones before it', async () => {
    const q = createPositionQueue({ key: 'k' });
    q.push(fix(1));
    q.push(fix(2));
    const s = server();
    const send = async (f: DriverFix) => {
      if (n(f) === 1) q.push(fix(3));
      return s.send(f);
    };
    await q.flush(send);
    expect(s.taken).toEqual([1, 2, 3]);
    // And one pushed just after a flush ended starts a new one.
    q.push(fix(4));
    await q.flush(s.send);
    expect(s.taken).toEqual([1, 2, 3, 4]);
  });

  it('drops a fix the server refuses for good and goes on with the next; stops (keeping them) when the link stops', async () => {
    const q = createPositionQueue({ key: 'k' });
    for (let i = 1; i <= 4; i++) q.push(fix(i));
    const s = server(['drop', 'sent', 'stop']);
    expect(await q.flush(s.send)).toEqual({ sent: 1, dropped: 1, halted: 'stop' });
    expect(s.taken).toEqual([2]);
    expect(q.entries().map((e) => n(e.fix))).toEqual([3, 4]);
  });

  it('is bounded: past the limit the oldest fixes go, the newest stay', async () => {
    const q = createPositionQueue({ key: 'k', limit: 500 });
    for (let i = 1; i <= 620; i++) q.push(fix(i));
    expect(q.size).toBe(500);
    expect(n(q.entries()[0].fix)).toBe(121);
    expect(n(q.entries()[499].fix)).toBe(620);
    const s = server();
    await q.flush(s.send);
    expect(s.taken).toEqual(Array.from({ length: 500 }, (_, i) => i + 121));
  });

  it('survives a reload through storage, without resending what was taken', async () => {
    const storage = memoryStorage();
    const before = createPositionQueue({ key: 'driver:8', storage });
    for (let i = 1; i <= 4; i++) before.push({ ...fix(i), heading: 90, speed: 12.5 });
    await before.flush(server(['sent', 'retry']).send);

    // The page reloads (still offline): a new queue over the same storage.
    const after = createPositionQueue({ key: 'driver:8', storage });
    expect(after.entries().map((e) => n(e.fix))).toEqual([2, 3, 4]);
    expect(after.entries()[0].fix).toEqual({ ...fix(2), heading: 90, speed: 12.5 });
    after.push(fix(5));
    expect(after.entries().map((e) => e.seq)).toEqual([2, 3, 4, 5]);
    const s = server();
    await after.flush(s.send);
    expect(s.taken).toEqual([2, 3, 4, 5]);
    expect(storage.getItem('driver:8')).toBeNull();
    expect(createPositionQueue({ key: 'driver:8', storage }).size).toBe(0);
  });

  it('keeps each queue under its own key, ignores an unreadable stored copy, and works when storage is full', async () => {
    const storage = memoryStorage();
    createPositionQueue({ key: 'a', storage }).push(fix(1));
    expect(createPositionQueue({ key: 'b', storage }).size).toBe(0);

    storage.setItem('c', '{nope');
    expect(createPositionQueue({ key: 'c', storage }).size).toBe(0);
    storage.setItem('d', JSON.stringify([{ seq: 1, fix: { latitude: 'x' } }, { seq: 2, fix: fix(2) }]));
    expect(createPositionQueue({ key: 'd', storage }).entries().map((e) => n(e.fix))).toEqual([2]);

    const full = { ...memoryStorage(), getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } } as Storage;
    const q = createPositionQueue({ key: 'e', storage: full });
    q.push(fix(1));
    q.push(fix(2));
    const s = server();
    await q.flush(s.send);
    expect(s.taken).toEqual([1, 2]);
  });

  it('clear() forgets everything (case closed), here and in storage, and halts a running flush', async () => {
    const storage = memoryStorage();
    const q = createPositionQueue({ key: 'k', storage });
    for (let i = 1; i <= 3; i++) q.push(fix(i));
    const s = server();
    const send = async (f: DriverFix) => {
      const outcome = await s.send(f);
      if (n(f) === 1) q.clear();
      return outcome;
    };
    await q.flush(send);
    expect(s.tried).toEqual([1]);
    expect(q.size).toBe(0);
    expect(storage.getItem('k')).toBeNull();
  });
});
