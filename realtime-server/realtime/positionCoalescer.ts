import type { PositionDto } from '../contract';

/**
 * Keeps the latest position per ambulance (latest wins by fix time) and hands them out
 * as one batch per flush: what the busy `staff` room receives at most once per interval.
 * An item is a position with whatever travels along with it (e.g. when it was published).
 */
export class PositionCoalescer<T extends { position: PositionDto } = { position: PositionDto }> {
  private pending = new Map<number, T>();
  private timer: NodeJS.Timeout;

  constructor(intervalMs: number, private flush: (batch: T[]) => void) {
    this.timer = setInterval(() => this.drain(), intervalMs);
    this.timer.unref();
  }

  add(item: T) {
    const held = this.pending.get(item.position.ambulanceId);
    if (!held || held.position.recorded_at <= item.position.recorded_at) this.pending.set(item.position.ambulanceId, item);
  }

  drain() {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending.clear();
    this.flush(batch);
  }

  stop() {
    clearInterval(this.timer);
  }
}
