import type { AmbulanceDto, PositionDto, PositionInput } from './ambulances';
import type { CaseDto, CaseLocationEvent } from './cases';
import type { UnitStatusAck, UnitStatusInput } from './callLife';
import type { BackupAck, BackupAlert, BackupRequestInput } from './capabilitySchemas';
import type { DriverDispatched, DriverStandby, TrackCaseUpdate, TrackPositionBatch } from './tracking';
import type { UserDto } from './users';
import type { HospitalDto, PrealertAckNotice, PrealertLateAlert } from './hospitals';

/** Socket.IO rooms (DESIGN.md §4). */
export const rooms = {
  staff: 'staff',
  admins: 'admins',
  /** The tracking and driver links of an ambulance: its positions as `track.position`. */
  ambulance: (id: number) => `ambulance:${id}`,
  /** A hospital's own page (its link's sockets): `hospital.changed` only. */
  hospital: (id: number) => `hospital:${id}`,
} as const;

export interface Deleted<Id> { id: Id }
export interface PositionBatch { positions: PositionDto[] }

/** Every event the server sends; each carries the presented row (with its version). */
export interface ServerToClientEvents {
  'case.created': (c: CaseDto) => void;
  'case.updated': (c: CaseDto) => void;
  'case.deleted': (d: Deleted<string>) => void;
  'case.location': (l: CaseLocationEvent) => void;
  'ambulance.created': (a: AmbulanceDto) => void;
  'ambulance.updated': (a: AmbulanceDto) => void;
  'ambulance.deleted': (d: Deleted<number>) => void;
  /** Positions to staff, coalesced: the latest per ambulance at most once a second. */
  'ambulance.position': (b: PositionBatch) => void;
  'user.created': (u: UserDto) => void;
  'user.updated': (u: UserDto) => void;
  'user.deleted': (d: Deleted<number>) => void;
  /** A crew on a call asked for backup: an alert every dispatcher must see. */
  'backup.requested': (a: BackupAlert) => void;
  /** Hospitals as admins edit them or a hospital sets its diversion status (staff). */
  'hospital.updated': (h: HospitalDto) => void;
  'hospital.deleted': (d: Deleted<number>) => void;
  /** A pre-alert nobody acknowledged in PREALERT_ACK_AFTER: phone the hospital (staff). */
  'prealert.late': (a: PrealertLateAlert) => void;
  /** A hospital acknowledged a pre-alert (staff): a late alert about it is answered. */
  'prealert.acknowledged': (a: PrealertAckNotice) => void;
  /** To a hospital's page: something it shows changed (a unit's step, destination, pre-alert or its status); it reads its page again. */
  'hospital.changed': (c: { hospital_id: number }) => void;
  /**
   * A tracking or driver link's socket hears only `track.*` (and, waiting, `driver.*`) events, each
   * made by the presenter of GET /api/track for the link's role: its own case as it changes
   * (contract TrackCaseUpdate), and its ambulance's positions.
   */
  'track.case': (u: TrackCaseUpdate) => void;
  'track.position': (b: TrackPositionBatch) => void;
  /** To a driver link whose call ended: it waits for its ambulance's next call. */
  'driver.standby': (s: DriverStandby) => void;
  /** To a waiting driver link: its ambulance's next call, with a driver link for it. */
  'driver.dispatched': (d: DriverDispatched) => void;
}

export type PositionAck = { ok: true; latest: boolean } | { ok: false; error: string };

/** Only a driver socket may send positions, and only for its own ambulance. */
export interface ClientToServerEvents {
  'ambulance.position': (p: PositionInput, ack?: (r: PositionAck) => void) => void;
  /** The unit's next step (en route, on scene, …), as POST /api/ambulances/{id}/unit-status. */
  'unit.status': (s: UnitStatusInput, ack?: (r: UnitStatusAck) => void) => void;
  /** The crew asks for backup, as POST /api/ambulances/{id}/backup. */
  'unit.backup': (b: BackupRequestInput, ack?: (r: BackupAck) => void) => void;
}

/** What the handshake accepts in `auth`. */
export type SocketAuth = { token: string } | { trackToken: string } | { driverToken: string } | { hospitalId: number; hospitalToken: string };

export type EventName = keyof ServerToClientEvents;
