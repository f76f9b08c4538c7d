import { ApiError } from '../../api/client';
import type { AssignmentDto, UnitStatusAck } from '../../api/contract';
import type { SendOutcome } from './storedQueue';
import type { UnitPress } from './unitSteps';

export interface PressSenderDeps {
  /** Emits `unit.status` on the driver socket and resolves with its ack; null when the socket is not connected. Rejects on time-out. */
  viaSocket: (press: UnitPress) => Promise<UnitStatusAck> | null;
  /** POST /api/ambulances/{id}/unit-status?t=…; rejects with ApiError for an answer, anything else for no answer. */
  viaRest: (press: UnitPress) => Promise<UnitStatusAck>;
  /** Asks the tracking link whether the case is over (404 there): true when it is. */
  linkClosed: () => Promise<boolean>;
  onAccepted: (assignment: AssignmentDto, press: UnitPress) => void;
  /** The server will never record this press (already reached, gone back, reassigned): the crew is told why. */
  onRefused: (reason: string, press: UnitPress) => void;
  /** The case is over: the link no longer sends. */
  onClosed: () => void;
}

/**
 * One send of one press, as the queue wants it: over the socket when it is up, else (or when
 * the ack does not come, or refuses) over REST, whose status code decides: taken; a 409 or an
 * invalid press dropped with the server's words; a link that stopped working a stop (its case
 * is over) or a drop (this link may not move the unit any more); no answer or a busy server a
 * retry, so the press waits in the queue with its press time.
 */
export function createPressSender(deps: PressSenderDeps) {
  async function viaRest(press: UnitPress): Promise<SendOutcome> {
    try {
      const ack = await deps.viaRest(press);
      if (!ack.ok) throw new ApiError(409, ack.error);
      deps.onAccepted(ack.assignment, press);
      return 'sent';
    } catch (error) {
      if (!(error instanceof ApiError)) return 'retry'; // offline: kept for later
      const text = error.serverError ?? `Refused (${error.status})`;
      if (error.status === 409 || error.status === 400 || error.status === 422) {
        deps.onRefused(text, press);
        return 'drop';
      }
      if (error.status === 403 || error.status === 404 || error.status === 410) {
        let closed: boolean;
        try {
          closed = await deps.linkClosed();
        } catch {
          return 'retry';
        }
        if (closed) {
          deps.onClosed();
          return 'stop';
        }
        deps.onRefused(text, press);
        return 'drop';
      }
      return 'retry'; // 401, 408, 429, 5xx: try again later
    }
  }

  return async function send(press: UnitPress): Promise<SendOutcome> {
    const acked = deps.viaSocket(press);
    if (acked) {
      try {
        const ack = await acked;
        if (ack.ok) {
          deps.onAccepted(ack.assignment, press);
          return 'sent';
        }
        // A refusal over the socket has no status code: REST answers the same press with one.
      } catch {
        // No ack in time (a half-dead socket, or the link revoked by this very press): REST decides.
      }
    }
    return viaRest(press);
  };
}
