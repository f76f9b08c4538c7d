import { ApiError } from '../../api/client';
import { MAX_ACCURACY_M, MAX_SPEED_MPS, type PositionAck } from '../../api/contract';
import type { DriverFix, SendOutcome } from './positionQueue';

/**
 * A device fix as the position API takes it: the fix's own time, and accuracy, heading and
 * speed only when the device gave usable values (a stationary device reports no heading; a
 * speed past the server's bound is a glitch, left out rather than refused).
 */
export function toDriverFix(position: Pick<GeolocationPosition, 'coords' | 'timestamp'>): DriverFix {
  const { latitude, longitude, accuracy, heading, speed } = position.coords;
  const fix: DriverFix = { latitude, longitude, timestamp: Math.round(position.timestamp) };
  if (Number.isFinite(accuracy) && accuracy >= 0) fix.accuracy = Math.min(accuracy, MAX_ACCURACY_M);
  if (heading != null && Number.isFinite(heading) && heading >= 0 && heading <= 360) fix.heading = heading;
  if (speed != null && Number.isFinite(speed) && speed >= 0 && speed <= MAX_SPEED_MPS) fix.speed = speed;
  return fix;
}

/** The server's words when a driver link has stopped because its case closed. */
export const isClosedText = (text: string | undefined) => Boolean(text && /no longer valid|case is closed/i.test(text));

export interface FixSenderDeps {
  /** Sends over the driver socket and resolves with the ack; null when the socket is not connected. Rejects on time-out. */
  viaSocket: (fix: DriverFix) => Promise<PositionAck> | null;
  /** POST /api/ambulances/{id}/position?t=…; rejects with ApiError for an answer, anything else for no answer. */
  viaRest: (fix: DriverFix) => Promise<unknown>;
  /** Asks the tracking link whether the case is over (404 there): true when it is. */
  linkClosed: () => Promise<boolean>;
  onSent?: (fix: DriverFix, via: 'socket' | 'rest') => void;
  /** The case closed: the queue stops and the page says so. */
  onClosed: () => void;
  /** A refusal worth showing (an invalid position, an unexpected answer). */
  onProblem?: (text: string) => void;
}

/**
 * One send of one fix, as the queue wants it: over the socket when it is up, else (or when
 * the ack does not come) over REST; a network failure is a retry, a closed case a stop, an
 * invalid position a drop. A device clock ahead of the server's makes every fix "in the
 * future": then the fix goes once more without its time (the server stamps it).
 */
export function createFixSender(deps: FixSenderDeps) {
  async function closedOrRetry(text: string | undefined): Promise<SendOutcome> {
    let closed = isClosedText(text);
    if (!closed) {
      try {
        closed = await deps.linkClosed();
      } catch {
        closed = false;
      }
    }
    if (closed) {
      deps.onClosed();
      return 'stop';
    }
    if (text) deps.onProblem?.(text);
    return 'retry';
  }

  async function refused(fix: DriverFix, text: string, again: (f: DriverFix) => Promise<SendOutcome>): Promise<SendOutcome> {
    if (/^timestamp:/.test(text) && fix.timestamp !== undefined) {
      const untimed = { ...fix };
      delete untimed.timestamp;
      return again(untimed);
    }
    deps.onProblem?.(text);
    return 'drop';
  }

  async function viaRest(fix: DriverFix): Promise<SendOutcome> {
    try {
      await deps.viaRest(fix);
      deps.onSent?.(fix, 'rest');
      return 'sent';
    } catch (error) {
      if (!(error instanceof ApiError)) return 'retry'; // offline: kept for later
      const text = error.serverError;
      if (error.status === 403 || error.status === 404 || error.status === 410) return closedOrRetry(text);
      if (error.status === 400 || error.status === 422) return refused(fix, text ?? `Refused (${error.status})`, viaRest);
      return 'retry'; // 401, 408, 429, 5xx: try again later
    }
  }

  async function send(fix: DriverFix): Promise<SendOutcome> {
    const acked = deps.viaSocket(fix);
    if (acked) {
      let ack: PositionAck | undefined;
      try {
        ack = await acked;
      } catch {
        ack = undefined; // no ack in time (socket half-dead): REST decides
      }
      if (ack?.ok) {
        deps.onSent?.(fix, 'socket');
        return 'sent';
      }
      if (ack && !ack.ok) {
        if (isClosedText(ack.error)) return closedOrRetry(ack.error);
        if (/^(latitude|longitude|accuracy|heading|speed|timestamp|position)\b/.test(ack.error)) return refused(fix, ack.error, send);
        // Anything else (server trouble): REST may do better.
      }
    }
    return viaRest(fix);
  }

  return send;
}
