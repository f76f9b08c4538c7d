import { type AssignmentDto, type UnitStatusAck, type UnitStep, UNIT_STEPS } from '../../api/contract';
import { createPressSender } from './pressSender';
import { type StoredQueue, createStoredQueue } from './storedQueue';
import { STEP_BUTTON, type UnitPress, furthest } from './unitSteps';

/** What the driver's page shows about its step presses. */
export interface PressState {
  /** Presses waiting to be sent, oldest first. */
  waiting: readonly UnitPress[];
  /** The newest assignment a press's answer carried. */
  acked: AssignmentDto | null;
  /** Why a press was not recorded, in words for the crew (until the next press is taken). */
  notice: string | null;
  /** The case is over: the link no longer sends. */
  closed: boolean;
  /** The crew pressed Clear on this phone (its page then says the job is done). */
  clearPressed: boolean;
}

/** The socket as the presses need it: connected or not, and an acked emit with a time-out. */
export interface PressSocket {
  connected: boolean;
  timeout(ms: number): { emitWithAck(event: 'unit.status', press: UnitPress): Promise<UnitStatusAck> };
}

export interface PressStreamDeps {
  queue: StoredQueue<UnitPress>;
  socket: () => PressSocket | null;
  viaRest: (press: UnitPress) => Promise<UnitStatusAck>;
  linkClosed: () => Promise<boolean>;
  now?: () => number;
  /** How long a failed send waits before the next try (a reconnect or `online` tries at once). */
  retryMs?: number;
}

const ACK_MS = 8000;
const RETRY_MS = 5000;
const MAX_WAITING = 20;

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** A stored press, or null for anything else. */
export function readPress(value: unknown): UnitPress | null {
  const v = value as { status?: unknown; at?: unknown } | null;
  if (!v || !UNIT_STEPS.includes(v.status as UnitStep) || typeof v.at !== 'string' || Number.isNaN(Date.parse(v.at))) return null;
  return { status: v.status as UnitStep, at: v.at };
}

export const pressQueue = (key: string, storage: Storage | null) =>
  createStoredQueue<UnitPress>({ key, storage, limit: MAX_WAITING, read: readPress });

/**
 * The crew's step presses, without React: each press is queued with its time, sent in order
 * (socket with ack, REST when the socket is down), kept while offline and replayed when the
 * connection is back; a refused one leaves the queue and the crew reads why.
 */
export function createPressStream(deps: PressStreamDeps) {
  const { queue } = deps;
  const now = deps.now ?? Date.now;
  const waitingNow = () => queue.entries().map((e) => e.item);
  let state: PressState = {
    waiting: waitingNow(), acked: null, notice: null, closed: false,
    clearPressed: waitingNow().some((p) => p.status === 'cleared'),
  };
  const listeners = new Set<() => void>();
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const set = (patch: Partial<PressState>) => {
    state = { ...state, ...patch };
    for (const l of listeners) l();
  };
  const clearRetry = () => {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
  };

  function close() {
    if (state.closed) return;
    clearRetry();
    queue.clear();
    set({ closed: true, waiting: [] });
  }

  const send = createPressSender({
    viaSocket: (press) => {
      const s = deps.socket();
      return s?.connected ? s.timeout(ACK_MS).emitWithAck('unit.status', press) : null;
    },
    viaRest: deps.viaRest,
    linkClosed: deps.linkClosed,
    onAccepted: (assignment) => set({ acked: furthest(state.acked, assignment) }),
    onRefused: (reason, press) => set({ notice: `${STEP_BUTTON[press.status]} (pressed ${clock(press.at)}) was not recorded: ${reason}` }),
    onClosed: close,
  });

  function flush(): Promise<void> {
    if (state.closed) return Promise.resolve();
    clearRetry();
    return queue.flush(send).then((result) => {
      if (state.closed) return;
      set({ waiting: waitingNow() });
      if (result.halted === 'retry' && queue.size) {
        retryTimer ??= setTimeout(() => {
          retryTimer = null;
          void flush();
        }, deps.retryMs ?? RETRY_MS);
      }
    });
  }

  /** A press of a step button: queued with the device's time now, then sent in turn. */
  function press(status: UnitStep): Promise<void> {
    if (state.closed) return Promise.resolve();
    queue.push({ status, at: new Date(now()).toISOString() });
    set({ waiting: waitingNow(), notice: null, clearPressed: state.clearPressed || status === 'cleared' });
    return flush();
  }

  return {
    getState: () => state,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    press,
    flush,
    close,
    /** Leaving the page ends the timer (the queue stays in storage). */
    pause: clearRetry,
  };
}

export type PressStream = ReturnType<typeof createPressStream>;
