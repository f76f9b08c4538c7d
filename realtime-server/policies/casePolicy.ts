import type { CaseCreateInput } from '../contract';
import type { CaseRow } from '../../db/repositories/types';
import type { StaffMember } from './permissions';

/** Who may do what with a case, beyond the `case.*` permissions of the routes. */
export const casePolicy = {
  /** A case is opened in its creator's name: an `operatorId`, when sent, must be their own id. */
  mayCreate: (actor: StaffMember, input: Pick<CaseCreateInput, 'operatorId'>) => input.operatorId == null || input.operatorId === actor.id,
  /** The patient's location link shares a position only while its case is active (its holder is told 410 after). */
  takesLocation: (c: Pick<CaseRow, 'status'>) => c.status === 'active',
};
