import type { PositionDto } from '../contract';

/**
 * Keeps the latest position per ambulance (latest wins by fix time) and hands them out
 * as one batch per flush: what the busy `staff` room receives at most once per interval.
 */
export class PositionCoalescer {
  private pending = new Map<number, PositionDto>();
  private timer: NodeJS.Timeout;

  constructor(intervalMs: number, private flush: (batch: PositionDto[]) => void) {
    this.timer = setInterval(() => this.drain(), intervalMs);
    this.timer.unref();
  }

  add(p: PositionDto) {
    const held = this.pending.get(p.ambulanceId);
    if (!held || held.recorded_at <= p.recorded_at) this.pending.set(p.ambulanceId, p);
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
