import { DomainError } from './errors';

/**
 * How much report work one node takes on (REPORT_CONCURRENCY, REPORT_QUEUE, REPORT_PER_USER):
 * reports being made at once, reports waiting for a turn, and reports one staff member may have
 * made or waiting together.
 */
export interface ReportLimits { concurrency: number; queue: number; perUser: number }

/** A report refused for now: 503 when the node's queue is full, 429 when the caller holds their share; with the wait to suggest. */
export class ReportsBusy extends DomainError {
  constructor(status: 429 | 503, message: string, retryAfterS: number) {
    super(status, message, retryAfterS);
  }
}

/** Gives the slot back; a second call does nothing. */
export type ReleaseSlot = () => void;

interface Waiter { user: string; grant: (release: ReleaseSlot) => void; fail: (reason: Error) => void; signal: AbortSignal; onAbort: () => void }

/** The wait suggested before anything was measured, and its bounds (seconds). */
const FIRST_GUESS_S = 5;
const MAX_RETRY_S = 60;

/**
 * The node's report slots, shared by the JSON reports and the CSV export (issue 26: a storm of
 * year reports held positions to viewers for seconds and doubled the memory). At most
 * `concurrency` run; the next `queue` wait in line; one more is refused with 503. One staff
 * member holds at most `perUser` running and waiting (the Reports screen asks for its four
 * reports at once); one more is refused with 429. A free slot goes to the longest-waiting request
 * of someone with nothing running, else to the longest-waiting one: one person's batch never
 * holds back another's report. A waiting request whose client leaves gives up its place.
 */
export class ReportGate {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Per user: [running, running and waiting]. */
  private readonly byUser = new Map<string, { running: number; held: number }>();
  /** A moving average of how long a slot is held (ms), for Retry-After. */
  private heldMs = FIRST_GUESS_S * 1000;

  constructor(readonly limits: ReportLimits, private readonly now: () => number = performance.now.bind(performance)) {}

  /** What the node is doing: reports being made and waiting (for /api/metrics, tests and the bench). */
  stats() {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * A slot for `user`'s report: at once, or after a wait in line; refused with ReportsBusy when
   * the line or the user's share is full; rejected with the signal's reason if the client leaves
   * while waiting. The caller must call the release it gets, whatever happens to the report.
   */
  acquire(user: string, signal: AbortSignal): Promise<ReleaseSlot> {
    signal.throwIfAborted();
    const mine = this.byUser.get(user) ?? { running: 0, held: 0 };
    if (mine.held >= this.limits.perUser) {
      throw new ReportsBusy(429, `You already have ${mine.held} report${mine.held === 1 ? '' : 's'} being made or waiting (at most ${this.limits.perUser}); try again when one is done`, this.retryAfterS());
    }
    if (this.running >= this.limits.concurrency && this.waiting.length >= this.limits.queue) {
      throw new ReportsBusy(503, `Reports are busy on this server (${this.running} being made, ${this.waiting.length} waiting); try again in a moment`, this.retryAfterS());
    }
    mine.held++;
    this.byUser.set(user, mine);
    if (this.running < this.limits.concurrency) return Promise.resolve(this.start(user));
    return new Promise<ReleaseSlot>((grant, fail) => {
      const waiter: Waiter = {
        user, grant, fail, signal,
        onAbort: () => {
          const i = this.waiting.indexOf(waiter);
          if (i < 0) return;
          this.waiting.splice(i, 1);
          this.forget(user);
          fail(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Seconds to suggest in Retry-After: about the time for the line ahead to clear. */
  private retryAfterS(): number {
    const rounds = Math.ceil((this.waiting.length + 1) / this.limits.concurrency);
    return Math.min(MAX_RETRY_S, Math.max(1, Math.ceil((rounds * this.heldMs) / 1000)));
  }

  private start(user: string): ReleaseSlot {
    this.running++;
    this.byUser.get(user)!.running++;
    const since = this.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.heldMs = 0.8 * this.heldMs + 0.2 * (this.now() - since);
      this.byUser.get(user)!.running--;
      this.forget(user);
      this.next();
    };
  }

  /** One of the user's requests is over (done, refused or gone). */
  private forget(user: string) {
    const mine = this.byUser.get(user)!;
    if (--mine.held === 0) this.byUser.delete(user);
  }

  private next() {
    while (this.running < this.limits.concurrency && this.waiting.length) {
      let i = this.waiting.findIndex((w) => (this.byUser.get(w.user)?.running ?? 0) === 0);
      if (i < 0) i = 0;
      const [w] = this.waiting.splice(i, 1);
      w.signal.removeEventListener('abort', w.onAbort);
      w.grant(this.start(w.user));
    }
  }
}
