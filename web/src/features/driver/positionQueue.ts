/**
 * The driver's outgoing positions, in order: every fix goes through a stored queue
 * (storedQueue.ts), kept across a reload and sent oldest first.
 */
import { type FlushResult, type SendOutcome, createStoredQueue, finite } from './storedQueue';

export type { FlushResult, SendOutcome } from './storedQueue';

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

export function createPositionQueue(options: { key: string; storage?: Storage | null; limit?: number }): PositionQueue {
  const queue = createStoredQueue<DriverFix>({ key: options.key, storage: options.storage, limit: options.limit ?? QUEUE_LIMIT, read: readFix, field: 'fix' });
  return {
    get size() {
      return queue.size;
    },
    entries: () => queue.entries().map((e) => ({ seq: e.seq, fix: e.item })),
    push: (fix) => ({ seq: queue.push(fix).seq, fix }),
    flush: (send) => queue.flush(send),
    clear: () => queue.clear(),
  };
}
