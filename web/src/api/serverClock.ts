/**
 * The server's clock as the browser estimates it from each answer's `Date` header: call clocks
 * on the boards and the time a call came in are the server's, so a browser whose clock is
 * minutes off neither shows wrong waiting times nor sends a "call received" in the future.
 */
let offsetMs = 0;
let bestRoundTripMs = Infinity;

/** Learns from one answer: `Date` (whole seconds) against the middle of the round trip; the shortest trip seen wins. */
export function noteServerDate(dateHeader: string | null, sentAtMs: number, receivedAtMs: number) {
  const server = dateHeader ? Date.parse(dateHeader) : NaN;
  if (!Number.isFinite(server)) return;
  const roundTrip = receivedAtMs - sentAtMs;
  // A later sample may be better: the header's second has half a second of doubt either way.
  if (roundTrip > bestRoundTripMs + 1000) return;
  bestRoundTripMs = Math.min(bestRoundTripMs, roundTrip);
  offsetMs = server + 500 - (sentAtMs + receivedAtMs) / 2;
  if (Math.abs(offsetMs) < 1500) offsetMs = 0; // within what the header can tell: trust the browser
}

/** The server's "now", as well as the browser can tell. */
export const serverNow = () => Date.now() + offsetMs;

/** For tests. */
export function resetServerClock() {
  offsetMs = 0;
  bestRoundTripMs = Infinity;
}
