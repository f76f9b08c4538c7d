import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ManualClock, manualClock } from './manualClock';
import { useTestServer } from './testServer';

/** A port nothing listens on. */
export async function closedPort() {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** What the harness needs of a test's stand-in geocoder: where it listens, and whether it hangs. */
export interface StandInGeocoder { url: string; state: { mode: string } }

/**
 * A test server whose geocoder asks `up()` on a manual clock. `ask` counts the requests under
 * way and `fetchImpl` the upstream answers on their way back (a hanging upstream's never come),
 * so that `quiet()` knows when time may move: every request is parked on one of the clock's timers.
 */
export function geocoderOnClock(up: () => StandInGeocoder) {
  const clock: ManualClock = manualClock();
  let asking = 0;
  let answering = 0;
  const fetchImpl = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (up().state.mode === 'hang') return fetch(input, init);
    answering += 1;
    try {
      const res = await fetch(input, init);
      return new Response(await res.text(), res);
    } finally {
      answering -= 1;
    }
  }) as typeof fetch;
  const s = useTestServer(() => ({ env: { GEOCODER_URL: up().url }, fetchImpl, clock }));
  return {
    s,
    clock,
    ask(path: string, token: string) {
      asking += 1;
      return s.api('GET', path, { token }).finally(() => { asking -= 1; });
    },
    quiet: () => answering === 0 && clock.pending === asking,
  };
}

/** A test server whose geocoder records every upstream call it makes in `calls`. */
export function recordingServer(geocoderUrl: () => string | Promise<string>) {
  const calls: string[] = [];
  const fetchImpl = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => { calls.push(input instanceof Request ? input.url : input.toString()); return fetch(input, init); }) as typeof fetch;
  const s = useTestServer(async () => ({ env: { GEOCODER_URL: await geocoderUrl() }, fetchImpl }));
  return { s, calls };
}
