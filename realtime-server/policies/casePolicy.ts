import type { CaseCreateInput } from '../contract';
import type { StaffMember } from './permissions';

/** Who may do what with a case, beyond the `case.*` permissions of the routes. */
export const casePolicy = {
  /** A case is opened in its creator's name: an `operatorId`, when sent, must be their own id. */
  mayCreate: (actor: StaffMember, input: Pick<CaseCreateInput, 'operatorId'>) => input.operatorId == null || input.operatorId === actor.id,
};
