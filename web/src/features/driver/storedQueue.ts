/**
 * An ordered outbox kept in memory and in storage (so a reload while offline loses nothing),
 * sent oldest first, each entry removed only once the server has taken (or refused) it. The
 * driver's positions and its unit-status presses each go through one. Pure: no browser APIs
 * beyond the Storage it is given, so it is unit-tested as is.
 */

export const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export interface Queued<T> {
  /** Increases with every push, also across reloads: the entry's identity. */
  seq: number;
  item: T;
}

/**
 * What became of one send: taken by the server (`sent`), not delivered and worth trying
 * again later (`retry`: offline, server busy), refused for good (`drop`: the item
 * itself is refused; the next ones are still sent), or the link no longer sends (`stop`).
 */
export type SendOutcome = 'sent' | 'retry' | 'drop' | 'stop';

export interface FlushResult {
  sent: number;
  dropped: number;
  /** Why the flush ended before the queue was empty, if it did. */
  halted: 'retry' | 'stop' | null;
}

export interface StoredQueue<T> {
  readonly size: number;
  entries(): readonly Queued<T>[];
  /** Appends an item (the oldest one goes when the queue is full). */
  push(item: T): Queued<T>;
  /**
   * Sends the queued items one at a time, oldest first, until the queue is empty or a send
   * does not succeed. A call while a flush runs joins that flush (nothing is sent twice).
   */
  flush(send: (item: T) => Promise<SendOutcome>): Promise<FlushResult>;
  /** Forgets everything, here and in storage (the case is closed); a running flush stops. */
  clear(): void;
}

/** The stored entries, oldest first; anything unreadable is left out. */
function load<T>(storage: Storage | null, key: string, itemKey: string, read: (value: unknown) => T | null): Queued<T>[] {
  if (!storage) return [];
  try {
    const raw = storage.getItem(key);
    if (!raw) return [];
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    const entries: Queued<T>[] = [];
    for (const stored of parsed) {
      const seq = (stored as { seq?: unknown } | null)?.seq;
      const item = read((stored as Record<string, unknown> | null)?.[itemKey]);
      if (finite(seq) && item) entries.push({ seq, item });
    }
    return entries.sort((a, b) => a.seq - b.seq);
  } catch {
    return [];
  }
}

export interface StoredQueueOptions<T> {
  /** The storage key: one queue per key. */
  key: string;
  storage?: Storage | null;
  limit: number;
  /** An item read back from storage, or null when it is not one (left out). */
  read: (value: unknown) => T | null;
  /** The stored entry's field holding the item (`{seq, [field]}`); the positions' format keeps `fix`. */
  field?: string;
}

export function createStoredQueue<T>(options: StoredQueueOptions<T>): StoredQueue<T> {
  const { key, storage = null, field = 'item' } = options;
  const limit = Math.max(1, options.limit);
  let entries = load(storage, key, field, options.read).slice(-limit);
  let nextSeq = entries.length ? entries[entries.length - 1].seq + 1 : 1;
  let running: Promise<FlushResult> | null = null;
  /** Bumped by clear(): a flush that started before stops. */
  let generation = 0;

  function persist() {
    if (!storage) return;
    try {
      if (entries.length) storage.setItem(key, JSON.stringify(entries.map((e) => ({ seq: e.seq, [field]: e.item }))));
      else storage.removeItem(key);
    } catch {
      // Storage full or blocked: the memory copy still holds every entry.
    }
  }

  async function run(send: (item: T) => Promise<SendOutcome>): Promise<FlushResult> {
    // Let flush() record this run before anything can end it.
    await Promise.resolve();
    const startedIn = generation;
    const result: FlushResult = { sent: 0, dropped: 0, halted: null };
    for (;;) {
      // Ends synchronously after the last check, so an item pushed later starts a new run.
      if (!entries.length || generation !== startedIn) break;
      const head = entries[0];
      let outcome: SendOutcome;
      try {
        outcome = await send(head.item);
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
    push(item) {
      const entry: Queued<T> = { seq: nextSeq++, item };
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
