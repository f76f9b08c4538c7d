import type { AmbulanceUpdateInput } from '../contract';
import type { AmbulanceRow } from '../../db/repositories/types';
import type { StaffMember } from './permissions';

/**
 * The fields an edit actually changes. The ambulance form sends the plate, the driver
 * e-mail and the capability back with the status, so only a value that differs from the row is a change.
 */
export const ambulanceEdits = (before: AmbulanceRow, input: AmbulanceUpdateInput) => ({
  plate: input.license_plate !== undefined && input.license_plate !== before.license_plate,
  email: input.email !== undefined && input.email !== before.driver_email,
  capability: input.capability !== undefined && input.capability !== before.capability,
});

/** Who may change what on an ambulance (the `ambulance.*` permissions decide who reaches the route at all). */
export const ambulancePolicy = {
  /** Admins may change every field; other staff the status only. */
  mayUpdate: (actor: StaffMember, before: AmbulanceRow, input: AmbulanceUpdateInput) => {
    const edits = ambulanceEdits(before, input);
    return actor.role === 'admin' || !(edits.plate || edits.email || edits.capability);
  },
};
