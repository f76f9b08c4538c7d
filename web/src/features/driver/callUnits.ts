import { type TrackUnit, isOpenAssignment } from '../../api/contract';
import { UNIT_STATUS_LABELS } from '../../domain/callLife';
import { capabilityWords, isResponderCar } from '../shared/capabilityWords';

/** Another unit on the crew's call, in the words the page shows. */
export interface OtherUnit {
  plate: string;
  /** "ALS", "Car — cannot convey", … */
  capability: string;
  car: boolean;
  /** The step in the page's own words ("En route", "On scene", …). */
  step: string;
  status: TrackUnit['status'];
  /** Still on the call (not cleared or stood down). */
  onCall: boolean;
}

/** The call's other units as the driver link lists them (open ones first, the server's order kept). */
export function otherUnits(units: readonly TrackUnit[] | undefined): OtherUnit[] {
  return (units ?? []).map((u) => ({
    plate: u.license_plate ?? 'Unit with no plate',
    capability: capabilityWords(u.capability),
    car: isResponderCar(u.capability),
    step: UNIT_STATUS_LABELS[u.status] ?? u.status,
    status: u.status,
    onCall: isOpenAssignment(u.status),
  }));
}

/** What a backup request shows until the next one: when it was taken, or why not. */
export type BackupOutcome = { ok: true; at: string } | { ok: false; error: string };

export interface BackupState {
  /** idle: the one button; confirming: the optional note and Send; sending: waiting for the answer. */
  phase: 'idle' | 'confirming' | 'sending';
  outcome: BackupOutcome | null;
}

export type BackupAction =
  | { type: 'open' }
  | { type: 'cancel' }
  | { type: 'send' }
  | { type: 'answered'; ack: { ok: true; alert: { at: string } } | { ok: false; error: string } };

export const BACKUP_IDLE: BackupState = { phase: 'idle', outcome: null };

/**
 * The backup control's steps: a first tap opens the note (optional) and Send, a second sends;
 * nothing goes out on one stray tap, and a second request cannot start while one is on its way.
 */
export function backupStep(state: BackupState, action: BackupAction): BackupState {
  switch (action.type) {
    case 'open':
      return state.phase === 'idle' ? { ...state, phase: 'confirming' } : state;
    case 'cancel':
      return state.phase === 'confirming' ? { ...state, phase: 'idle' } : state;
    case 'send':
      return state.phase === 'confirming' ? { ...state, phase: 'sending' } : state;
    case 'answered':
      return { phase: 'idle', outcome: action.ack.ok ? { ok: true, at: action.ack.alert.at } : { ok: false, error: action.ack.error } };
  }
}
