/**
 * The driver's outgoing positions, in order. Every fix goes through this queue: it is kept
 * in memory and in storage (so a reload while offline loses nothing), sent oldest first,
 * and removed only once the server has taken it. Pure: no browser APIs beyond the Storage
 * it is given, so it is unit-tested as is.
 */

/** One fix from the device, as the position API takes it (`timestamp`: epoch ms of the fix). */
export interface DriverFix {
  latitude: number;
  longitude: number;
  accuracy?: number;
  heading?: number;
  speed?: number;
  timestamp?: number;
}

export interface QueuedFix {
  /** Increases with every push, also across reloads: the entry's identity. */
  seq: number;
  fix: DriverFix;
}

/**
 * What became of one send: taken by the server (`sent`), not delivered and worth trying
 * again later (`retry`: offline, server busy), refused for good (`drop`: the position
 * itself is invalid; the next ones are still sent), or the link no longer sends (`stop`).
 */
export type SendOutcome = 'sent' | 'retry' | 'drop' | 'stop';

export interface FlushResult {
  sent: number;
  dropped: number;
  /** Why the flush ended before the queue was empty, if it did. */
  halted: 'retry' | 'stop' | null;
}

export interface PositionQueue {
  readonly size: number;
  entries(): readonly QueuedFix[];
  /** Appends a fix (the oldest one goes when the queue is full). */
  push(fix: DriverFix): QueuedFix;
  /**
   * Sends the queued fixes one at a time, oldest first, until the queue is empty or a send
   * does not succeed. A call while a flush runs joins that flush (nothing is sent twice).
   */
  flush(send: (fix: DriverFix) => Promise<SendOutcome>): Promise<FlushResult>;
  /** Forgets everything, here and in storage (the case is closed); a running flush stops. */
  clear(): void;
}

export const QUEUE_LIMIT = 500;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function readFix(value: unknown): DriverFix | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (!finite(v.latitude) || !finite(v.longitude)) return null;
  const fix: DriverFix = { latitude: v.latitude, longitude: v.longitude };
  if (finite(v.timestamp)) fix.timestamp = v.timestamp;
  if (finite(v.accuracy)) fix.accuracy = v.accuracy;
  if (finite(v.heading)) fix.heading = v.heading;
  if (finite(v.speed)) fix.speed = v.speed;
  return fix;
}

/** The stored entries, oldest first; anything unreadable is left out. */
function load(storage: Storage | null, key: string): QueuedFix[] {
  if (!storage) return [];
  try {
    const raw = storage.getItem(key);
    if (!raw) return [];
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    const entries: QueuedFix[] = [];
    for (const item of parsed) {
      const seq = (item as { seq?: unknown } | null)?.seq;
      const fix = readFix((item as { fix?: unknown } | null)?.fix);
      if (finite(seq) && fix) entries.push({ seq, fix });
    }
    return entries.sort((a, b) => a.seq - b.seq);
  } catch {
    return [];
  }
}

export function createPositionQueue(options: { key: string; storage?: Storage | null; limit?: number }): PositionQueue {
  const { key, storage = null } = options;
  const limit = Math.max(1, options.limit ?? QUEUE_LIMIT);
  let entries = load(storage, key).slice(-limit);
  let nextSeq = entries.length ? entries[entries.length - 1].seq + 1 : 1;
  let running: Promise<FlushResult> | null = null;
  /** Bumped by clear(): a flush that started before stops. */
  let generation = 0;

  function persist() {
    if (!storage) return;
    try {
      if (entries.length) storage.setItem(key, JSON.stringify(entries));
      else storage.removeItem(key);
    } catch {
      // Storage full or blocked: the memory copy still holds every entry.
    }
  }

  async function run(send: (fix: DriverFix) => Promise<SendOutcome>): Promise<FlushResult> {
    // Let flush() record this run before anything can end it.
    await Promise.resolve();
    const startedIn = generation;
    const result: FlushResult = { sent: 0, dropped: 0, halted: null };
    for (;;) {
      // Ends synchronously after the last check, so a fix pushed later starts a new run.
      if (!entries.length || generation !== startedIn) break;
      const head = entries[0];
      let outcome: SendOutcome;
      try {
        outcome = await send(head.fix);
      } catch {
        outcome = 'retry';
      }
      if (generation !== startedIn) break;
      if (outcome === 'retry' || outcome === 'stop') {
        result.halted = outcome;
        break;
      }
      // Taken or refused for good: only that entry leaves (more may have been pushed meanwhile).
      entries = entries.filter((e) => e.seq !== head.seq);
      persist();
      if (outcome === 'sent') result.sent += 1;
      else result.dropped += 1;
    }
    running = null;
    return result;
  }

  return {
    get size() {
      return entries.length;
    },
    entries: () => entries,
    push(fix) {
      const entry: QueuedFix = { seq: nextSeq++, fix };
      entries = [...entries, entry].slice(-limit);
      persist();
      return entry;
    },
    flush(send) {
      running ??= run(send);
      return running;
    },
    clear() {
      generation += 1;
      entries = [];
      persist();
    },
  };
}
