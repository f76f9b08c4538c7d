import type { Clock } from './clock';

/**
 * Why a place in line ended: `go` (call the upstream now), `busy` (the turn would come after the
 * wait bound, or the line is full), `down` (the upstream was found failing meanwhile), `left`
 * (the holder gave its place up).
 */
export type Turn = 'go' | 'busy' | 'down' | 'left';

export interface SlotTicket {
  /** Settles once, with how the wait ended. */
  readonly turn: Promise<Turn>;
  /** Gives the place up (its turn answers `left`); nothing once the turn has come. */
  leave(): void;
}

export interface FairSlotOptions {
  /** At most one turn per interval (Nominatim: one request a second). */
  intervalMs: number;
  /** A request whose turn would come later than this answers `busy` instead of waiting. */
  maxWaitMs: number;
  /** Requests waiting at most; when full, a newcomer takes the newest place of whoever holds the most. */
  maxQueued: number;
}

interface Waiting { user: string; deadline: number; settle: (t: Turn) => void; cancelTimer: () => void }

const settled = (t: Turn): SlotTicket => ({ turn: Promise.resolve(t), leave: () => undefined });

/**
 * One rate-limited slot shared round-robin between users. Each user waits in their own line and
 * turns go to the users in rotation, one each, so another user's requests delay one by at most
 * one turn per user ahead, however many they send. A user keeps their place in the rotation
 * while their line is empty until their place comes round, so one who replaces a request (a
 * newer search) is not sent to the back. Every waiting request holds one timer, for the next
 * free slot or its deadline, whichever is first (the manual clock in tests counts on that).
 */
export function createFairSlot(clock: Clock, opts: FairSlotOptions) {
  let nextSlot = -Infinity;
  /** Users' lines in the order they get turns: the first is next, then goes to the back. */
  const lines = new Map<string, Waiting[]>();
  let queued = 0;

  function remove(w: Waiting): boolean {
    const line = lines.get(w.user);
    const i = line ? line.indexOf(w) : -1;
    if (!line || i < 0) return false;
    line.splice(i, 1);
    queued -= 1;
    w.cancelTimer();
    return true;
  }

  /** Gives the turn to the next user in rotation when the slot is free. */
  function pump() {
    if (clock.now() < nextSlot) return;
    for (const [user, line] of lines) {
      const w = line[0];
      if (w) remove(w);
      // Served, or an empty line whose place came round: to the back of the rotation, or out of it.
      lines.delete(user);
      if (!w) continue;
      if (line.length) lines.set(user, line);
      nextSlot = clock.now() + opts.intervalMs;
      w.settle('go');
      return;
    }
  }

  function arm(w: Waiting) {
    const wake = Math.min(w.deadline, nextSlot);
    w.cancelTimer = clock.after(Math.max(0, wake - clock.now()), () => {
      pump();
      if (!lines.get(w.user)?.includes(w)) return;
      if (clock.now() >= w.deadline) {
        remove(w);
        w.settle('busy');
      } else arm(w);
    });
  }

  /** When a newcomer in `user`'s line would get its turn if nobody else came. */
  function expectedStart(user: string): number {
    const own = lines.get(user)?.length ?? 0;
    let ahead = own;
    let before = true;
    for (const [u, line] of lines) {
      if (u === user) before = false;
      else ahead += Math.min(line.length, before ? own + 1 : own);
    }
    return Math.max(clock.now(), nextSlot) + ahead * opts.intervalMs;
  }

  /**
   * Makes room in a full line for `user`: the user holding the most places gives up their newest,
   * if they would still hold as many as `user` then does (so that two users never take turns evicting each other).
   */
  function makeRoom(user: string): boolean {
    const own = lines.get(user)?.length ?? 0;
    let most: Waiting[] | undefined;
    for (const line of lines.values()) if (line.length > (most?.length ?? own + 1)) most = line;
    const evicted = most?.at(-1);
    if (!evicted) return false;
    remove(evicted);
    evicted.settle('busy');
    return true;
  }

  return {
    /** A place in `user`'s line. */
    join(user: string): SlotTicket {
      const now = clock.now();
      if (queued === 0 && now >= nextSlot) {
        nextSlot = now + opts.intervalMs;
        return settled('go');
      }
      if (expectedStart(user) - now > opts.maxWaitMs) return settled('busy');
      if (queued >= opts.maxQueued && !makeRoom(user)) return settled('busy');
      let settle!: (t: Turn) => void;
      const turn = new Promise<Turn>((resolve) => { settle = resolve; });
      const w: Waiting = { user, deadline: now + opts.maxWaitMs, settle, cancelTimer: () => undefined };
      const line = lines.get(user);
      if (line) line.push(w);
      else lines.set(user, [w]);
      queued += 1;
      arm(w);
      pump();
      return { turn, leave: () => { if (remove(w)) settle('left'); } };
    },

    /** The upstream failed: everyone waiting answers `down` at once instead of waiting to knock again. */
    releaseAll() {
      for (const line of lines.values()) for (const w of line.splice(0)) { w.cancelTimer(); w.settle('down'); }
      lines.clear();
      queued = 0;
    },
  };
}

export type FairSlot = ReturnType<typeof createFairSlot>;
