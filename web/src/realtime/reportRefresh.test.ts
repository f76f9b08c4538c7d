import { EventEmitter } from 'node:events';
import { type QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queries, type ReportPeriodParams } from '../api/queries';
import { createQueryClient } from '../api/queryClient';
import { saveSession } from '../auth/session';
import { memoryStorage } from '../testing/memoryStorage';
import { connectLiveCache } from './liveCache';
import type { LiveSocket } from './socket';

/**
 * What an open Reports screen asks of the server while calls change (issue 26, item 2): the
 * app's QueryClient, live cache and report queries, a scripted socket, a pinned clock (fake
 * timers; in UTC "today" is 24 Nov 2026) and a fetch that records each report request.
 */

const NOW = Date.parse('2026-11-24T10:00:00Z');
const PAST: ReportPeriodParams = { from: '2026-10-01', to: '2026-11-01', tz: 'UTC' };
/** The last 30 days: to is the day after today. */
const LAST30: ReportPeriodParams = { from: '2026-10-26', to: '2026-11-25', tz: 'UTC' };
/** A custom 400 days ending today. */
const LAST400: ReportPeriodParams = { from: '2025-10-21', to: '2026-11-25', tz: 'UTC' };

let qc: QueryClient;
let socket: EventEmitter;
let unhook: () => void;
let stops: (() => void)[];
/** Every report request: its URL, when it was made, its signal, and whether it is still held. */
let requests: { url: string; at: number; signal: AbortSignal | undefined; answer: () => void }[];
let hold: boolean;

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const reportBody = { overall: { calls: 1 }, counts: [] };

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  vi.stubGlobal('localStorage', memoryStorage({}));
  saveSession({ token: 'tok', expiresAt: new Date(NOW + 86_400_000).toISOString(), user: { id: 2, email: 'op@lifeline.test', role: 'operator', username: 'Op' } });
  requests = [];
  hold = false;
  stops = [];
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => new Promise<Response>((resolve, reject) => {
    const answer = () => resolve(json(url.startsWith('/api/reports') ? reportBody : { cases: [], counts: {}, ambulances: [] }));
    if (url.startsWith('/api/reports')) requests.push({ url, at: Date.now(), signal: init?.signal ?? undefined, answer });
    init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    if (!hold) answer();
  }));
  qc = createQueryClient();
  socket = new EventEmitter();
  unhook = connectLiveCache(socket as unknown as LiveSocket, qc);
  socket.emit('connect');
});

afterEach(() => {
  stops.forEach((stop) => stop());
  unhook();
  qc.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A screen showing these reports: observed as long as it is mounted. */
function show(...options: { queryKey: readonly unknown[] }[]) {
  const mine = options.map((o) => new QueryObserver(qc, o as never).subscribe(() => {}));
  stops.push(...mine);
  return () => mine.forEach((stop) => stop());
}
const screen = (p: ReportPeriodParams) => [queries.reports.responseTimes(p), queries.reports.utilisation(p), queries.reports.demand(p)];

/** Another dispatcher changes a call every second for `seconds`. */
async function callsChange(seconds: number) {
  for (let i = 0; i < seconds; i++) {
    socket.emit('case.updated', { id: 'c1', version: i + 2, status: 'active' });
    await vi.advanceTimersByTimeAsync(1000);
  }
}
const gaps = (list: { at: number }[]) => list.slice(1).map((r, i) => r.at - list[i].at);

describe('an open Reports screen while calls change', () => {
  it('never asks again for a period wholly past: not on call changes, not after a reconnect, not when shown again', async () => {
    const hide = show(...screen(PAST));
    await vi.advanceTimersByTimeAsync(10);
    expect(requests).toHaveLength(3);
    await callsChange(30 * 60);
    // Events were missed while the socket was away: nothing missed can change a past period.
    socket.emit('disconnect');
    socket.emit('connect');
    await vi.advanceTimersByTimeAsync(5000);
    hide();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    show(...screen(PAST));
    await vi.advanceTimersByTimeAsync(10);
    expect(requests).toHaveLength(3);
  });

  it('refreshes a period reaching today at most once a minute (30 days) or once in ten (400 days), and never loses a change', async () => {
    show(...screen(LAST30), ...screen(LAST400));
    await vi.advanceTimersByTimeAsync(10);
    expect(requests).toHaveLength(6);
    await callsChange(25 * 60);
    const of = (p: ReportPeriodParams, kind: string) => requests.filter((r) => r.url.startsWith(`/api/reports/${kind}?from=${p.from}&to=${p.to}`));
    for (const kind of ['response-times', 'utilisation', 'demand']) {
      const month = of(LAST30, kind);
      const year = of(LAST400, kind);
      expect(Math.min(...gaps(month))).toBeGreaterThanOrEqual(60_000);
      expect(Math.min(...gaps(year))).toBeGreaterThanOrEqual(10 * 60_000);
      // The changes go on: each window ends in a refresh (25 minutes: 25 after the first load, 2 for the long period).
      expect(month).toHaveLength(1 + 25);
      expect(year).toHaveLength(1 + 2);
    }
    // The last changes are asked for at their windows' ends; then nothing while no call changes.
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    const before = requests.length;
    await vi.advanceTimersByTimeAsync(15 * 60_000);
    expect(requests).toHaveLength(before);
    // After a quiet spell, the first change is asked for at once.
    await callsChange(1);
    expect(requests.length).toBe(before + 6);
  });

  it("keeps today's own figures live (at most every 5 s)", async () => {
    show(queries.todayReport('2026-11-24', 'UTC'));
    await vi.advanceTimersByTimeAsync(10);
    await callsChange(60);
    expect(requests).toHaveLength(1 + 12);
    expect(Math.min(...gaps(requests))).toBeGreaterThanOrEqual(5000);
  });

  it('aborts the fetch of a report whose screen is left (the signal reaches fetch)', async () => {
    hold = true;
    const hide = show(queries.reports.responseTimes(LAST400));
    await vi.advanceTimersByTimeAsync(10);
    expect(requests).toHaveLength(1);
    expect(requests[0].signal?.aborted).toBe(false);
    hide();
    expect(requests[0].signal?.aborted).toBe(true);
  });

  it('lets a refresh on its way finish instead of abandoning it to ask again', async () => {
    show(...screen(LAST30));
    await vi.advanceTimersByTimeAsync(10);
    hold = true;
    // A minute of changes starts one refresh, held; ten more minutes of changes while it is on its way.
    await callsChange(11 * 60);
    const held = requests.slice(3);
    expect(held).toHaveLength(3);
    expect(held.every((r) => r.signal?.aborted === false)).toBe(true);
    // It lands: the changes heard meanwhile are asked for within the next window.
    hold = false;
    held.forEach((r) => r.answer());
    await callsChange(61);
    expect(requests).toHaveLength(9);
    expect(requests.every((r) => r.signal?.aborted === false)).toBe(true);
  });
});
