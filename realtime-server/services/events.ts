import type { AmbulanceDto, BackupAlert, CaseDto, CaseLocationEvent, HospitalDto, PositionDto, PrealertAckNotice, PrealertLateAlert, UserDto } from '../contract';

/** What services record inside a transaction; published only after it commits. */
export type DomainEvent =
  | { type: 'case.created' | 'case.updated'; case: CaseDto }
  | { type: 'case.deleted'; id: string }
  /** The patient shared a fix: staff hear `location`, the case's links `track.case` made from `case`. */
  | { type: 'case.location'; location: CaseLocationEvent; case: CaseDto }
  | { type: 'ambulance.created' | 'ambulance.updated'; ambulance: AmbulanceDto }
  | { type: 'ambulance.deleted'; id: number }
  | { type: 'ambulance.position'; position: PositionDto }
  | { type: 'user.created' | 'user.updated'; user: UserDto }
  | { type: 'user.deleted'; id: number }
  /** Sessions revoked: their sockets are disconnected. */
  | { type: 'sessions.revoked'; sessionIds: number[] }
  /** A call's links stop: all of them, or one unit's (`ambulanceId`, stood down or cleared while others stay on the call). */
  | { type: 'grants.revoked'; caseId: string; ambulanceId?: number }
  /** A crew asked for another unit: every dispatcher is alerted. */
  | { type: 'backup.requested'; alert: BackupAlert }
  | { type: 'hospital.updated'; hospital: HospitalDto }
  | { type: 'hospital.deleted'; id: number }
  /** A hospital's link was replaced: its open pages' sockets go (the new link reconnects). */
  | { type: 'hospital.linkRevoked'; hospitalId: number }
  /** What these hospitals' pages show changed (a unit's step or destination, a pre-alert): they read it again. */
  | { type: 'hospital.changed'; hospitalIds: number[] }
  | { type: 'prealert.late'; alert: PrealertLateAlert }
  | { type: 'prealert.acknowledged'; alert: PrealertAckNotice }
  | { type: 'mail.queued' };

type Listener = (e: DomainEvent) => void;

export class EventBus {
  private listeners = new Set<Listener>();

  /** `onError` hears a listener that threw; the other listeners still get the event. */
  constructor(private onError: (err: unknown, e: DomainEvent) => void = (err, e) => console.error(`listener for ${e.type} failed`, err)) {}

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Called after a commit: a failing listener must neither stop the others nor turn the
   * committed write into an error for the caller.
   */
  publish(events: DomainEvent[]) {
    for (const e of events) {
      for (const fn of this.listeners) {
        try {
          fn(e);
        } catch (err) {
          try { this.onError(err, e); } catch { /* reporting must not throw either */ }
        }
      }
    }
  }
}
