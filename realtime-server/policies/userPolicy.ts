import type { UserRow } from '../../db/repositories/types';

/** Which accounts the staff-management routes may change. */
export const userPolicy = {
  /** Only operator accounts are managed through the API; admins are provisioned out of band. */
  isManaged: (user: Pick<UserRow, 'role'>) => user.role === 'operator',
};
