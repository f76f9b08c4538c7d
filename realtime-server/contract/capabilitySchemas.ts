import { z } from 'zod';
import type { AssignmentDto, Priority } from './callLife';
import { type BackupRequestState, CAPABILITIES } from './capability';
import type { CaseDto } from './cases';
import { intId } from './common';

/** A unit's capability in a request body (POST and PUT /api/ambulances). */
export const capabilitySchema = z.enum(CAPABILITIES, { error: 'must be als, bls, cct or responder' });

/**
 * POST /api/cases/{id}/assignments (staff, Idempotency-Key): adds a free unit to an open call (a
 * waiting call becomes active with it). 201 {case, assignment}; 409 when the unit is not free or
 * the call is over; atomic like a dispatch.
 */
export const addUnitSchema = z.object({ ambulance_id: intId() });
export type AddUnitInput = z.infer<typeof addUnitSchema>;
export interface AddUnitResponse { case: CaseDto; assignment: AssignmentDto }

/** POST /api/cases/{id}/assignments/{assignmentId}/cancel (staff): stands one unit down before it reaches the scene (eTimes.14). */
export const standDownSchema = z.object({
  reason: z.string({ error: 'required: say why the unit is stood down' }).trim().min(1, 'required: say why the unit is stood down').max(500),
});
export type StandDownInput = z.infer<typeof standDownSchema>;
export interface StandDownResponse { case: CaseDto; assignment: AssignmentDto }

/**
 * POST /api/ambulances/{id}/backup?t=… (the crew's driver link, or staff) and the driver socket's
 * `unit.backup`: the crew on a call asks for another unit. `note` says what for (optional).
 */
export const backupRequestSchema = z.object({
  note: z.string().trim().max(200).optional(),
});
export type BackupRequestInput = z.infer<typeof backupRequestSchema>;

/** `backup.requested` to staff: an unmissable alert on the call, with what a dispatcher needs to add a unit at once. */
export interface BackupAlert extends BackupRequestState {
  priority: Priority;
}
export type BackupAck = { ok: true; alert: BackupAlert } | { ok: false; error: string };
