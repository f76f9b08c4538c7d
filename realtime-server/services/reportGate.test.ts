import { describe, expect, it } from 'vitest';
import { ReportGate, ReportsBusy, type ReleaseSlot } from './reportGate';

const live = () => new AbortController();
/** The refusal `fn` throws. */
function refusal(fn: () => unknown): ReportsBusy {
  try {
    fn();
  } catch (err) {
    if (err instanceof ReportsBusy) return err;
    throw err;
  }
  throw new Error('not refused');
}

/** The node's report slots, on a clock the test moves. */
describe('ReportGate', () => {
  it('runs `concurrency` at once, queues `queue` more, and refuses the next with 503 and a wait to suggest', async () => {
    const gate = new ReportGate({ concurrency: 2, queue: 1, perUser: 5 }, () => 0);
    const a = await gate.acquire('a', live().signal);
    const b = await gate.acquire('b', live().signal);
    let cReleased: ReleaseSlot | undefined;
    const c = gate.acquire('c', live().signal).then((r) => { cReleased = r; });
    expect(gate.stats()).toEqual({ running: 2, waiting: 1 });
    const busy = refusal(() => gate.acquire('d', live().signal));
    expect(busy.status).toBe(503);
    expect(busy.message).toBe('Reports are busy on this server (2 being made, 1 waiting); try again in a moment');
    expect(busy.retryAfterS).toBeGreaterThanOrEqual(1);
    a();
    await c;
    expect(gate.stats()).toEqual({ running: 2, waiting: 0 });
    b();
    cReleased!();
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('holds one staff member to `perUser` made or waiting: one more is a 429, others still get in', async () => {
    const gate = new ReportGate({ concurrency: 1, queue: 10, perUser: 2 }, () => 0);
    const first = await gate.acquire('a', live().signal);
    const second = gate.acquire('a', live().signal);
    const busy = refusal(() => gate.acquire('a', live().signal));
    expect(busy.status).toBe(429);
    expect(busy.message).toBe('You already have 2 reports being made or waiting (at most 2); try again when one is done');
    const other = gate.acquire('b', live().signal);
    first();
    // The free slot goes to whoever has nothing running: b and a both wait, a's came first.
    (await second)();
    (await other)();
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
    // Done reports give their share back.
    (await gate.acquire('a', live().signal))();
  });

  it('gives a free slot to someone with nothing running before a second report of someone running one', async () => {
    const gate = new ReportGate({ concurrency: 2, queue: 10, perUser: 5 }, () => 0);
    const a1 = await gate.acquire('a', live().signal);
    const b1 = await gate.acquire('b', live().signal);
    const order: string[] = [];
    const a2 = gate.acquire('a', live().signal).then((r) => { order.push('a2'); return r; });
    const c1 = gate.acquire('c', live().signal).then((r) => { order.push('c1'); return r; });
    b1();
    const rc = await c1;
    expect(order).toEqual(['c1']);
    a1();
    (await a2)();
    rc();
    expect(order).toEqual(['c1', 'a2']);
  });

  it('drops a waiting request whose client left: its place and its share given back, its promise rejected with the reason', async () => {
    const gate = new ReportGate({ concurrency: 1, queue: 1, perUser: 1 }, () => 0);
    const running = await gate.acquire('a', live().signal);
    const ac = live();
    const waiting = gate.acquire('b', ac.signal);
    expect(refusal(() => gate.acquire('c', live().signal)).status).toBe(503);
    ac.abort(new Error('client left'));
    await expect(waiting).rejects.toThrow('client left');
    expect(gate.stats()).toEqual({ running: 1, waiting: 0 });
    // The queue's place and b's share are free again.
    const again = gate.acquire('b', live().signal);
    running();
    (await again)();
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a request whose client has already left, holding nothing', () => {
    const gate = new ReportGate({ concurrency: 1, queue: 1, perUser: 1 }, () => 0);
    const ac = live();
    ac.abort(new Error('gone'));
    expect(() => gate.acquire('a', ac.signal)).toThrow('gone');
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('releases once however often it is called, and suggests a wait from how long slots were held', async () => {
    let t = 0;
    const gate = new ReportGate({ concurrency: 1, queue: 0, perUser: 3 }, () => t);
    const r = await gate.acquire('a', live().signal);
    t = 20_000;
    r();
    r();
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
    const again = await gate.acquire('a', live().signal);
    // Held 20 s once, 5 s guessed before: 0.8 × 5 + 0.2 × 20 = 8 s.
    expect(refusal(() => gate.acquire('b', live().signal)).retryAfterS).toBe(8);
    again();
  });
});
