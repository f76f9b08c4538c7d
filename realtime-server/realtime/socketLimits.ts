import type { Socket } from 'socket.io';

/**
 * Limits on what one socket may send, applied to every incoming event packet before any
 * listener runs (`socket.use`), so an event over the limit costs no parsing of its payload,
 * no database work and no rate-limiter call: it gets at most an error ack.
 *
 * - A token bucket per socket: `eventsPerSecond`, with bursts of twice that.
 * - A socket that keeps sending while refused (`strikes` refusals within STRIKE_WINDOW_MS) is
 *   disconnected, and its link may not open a socket on this node for COOL_DOWN_MS.
 * - At most `socketsPerLink` sockets per link token on this node: more sockets on one token
 *   would multiply the per-socket budget.
 */
export interface SocketLimitOptions {
  eventsPerSecond: number;
  socketsPerLink: number;
}

export const FLOOD_REFUSAL = 'Too many events on this connection; slow down';
export const TOO_MANY_SOCKETS = 'too many connections for this link';
const STRIKE_WINDOW_MS = 10_000;
export const COOL_DOWN_MS = 30_000;

/** A token bucket: `take()` is false when the bucket is empty. */
export class EventBucket {
  private tokens: number;
  private last: number;

  constructor(private readonly perSecond: number, private readonly burst: number, private readonly now: () => number = Date.now) {
    this.tokens = burst;
    this.last = now();
  }

  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** What the limits report, for the log and the metrics. */
export interface FloodReport { linkKey?: string; refused: number }

export function createSocketLimits(opts: SocketLimitOptions, onFlood: (socket: Socket, report: FloodReport) => void, now: () => number = Date.now) {
  const perLink = new Map<string, number>();
  const coolingUntil = new Map<string, number>();
  const strikesToDisconnect = Math.max(10, opts.eventsPerSecond * 3);

  return {
    /** Whether a link may open one more socket here (undefined: yes; else the refusal). */
    admit(linkKey: string): string | undefined {
      const until = coolingUntil.get(linkKey);
      if (until !== undefined && until > now()) return TOO_MANY_SOCKETS;
      if (until !== undefined) coolingUntil.delete(linkKey);
      if ((perLink.get(linkKey) ?? 0) >= opts.socketsPerLink) return TOO_MANY_SOCKETS;
      return undefined;
    },

    /** Counts a link's socket while it is connected. */
    track(socket: Socket, linkKey: string) {
      perLink.set(linkKey, (perLink.get(linkKey) ?? 0) + 1);
      socket.once('disconnect', () => {
        const n = (perLink.get(linkKey) ?? 1) - 1;
        if (n > 0) perLink.set(linkKey, n);
        else perLink.delete(linkKey);
      });
    },

    /** The per-socket bucket, on every incoming event of `socket`. */
    guard(socket: Socket, linkKey?: string) {
      const bucket = new EventBucket(opts.eventsPerSecond, opts.eventsPerSecond * 2, now);
      let refusals: number[] = [];
      socket.use((packet, next) => {
        if (bucket.take()) return next();
        const ack: unknown = packet[packet.length - 1];
        if (typeof ack === 'function') (ack as (answer: { ok: false; error: string }) => void)({ ok: false, error: FLOOD_REFUSAL });
        const t = now();
        refusals.push(t);
        if (refusals.length >= strikesToDisconnect) {
          refusals = refusals.filter((at) => at > t - STRIKE_WINDOW_MS);
          if (refusals.length >= strikesToDisconnect && socket.connected) {
            if (linkKey) coolingUntil.set(linkKey, t + COOL_DOWN_MS);
            onFlood(socket, { linkKey, refused: refusals.length });
            socket.disconnect(true);
          }
        }
      });
    },
  };
}
