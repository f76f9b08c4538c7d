import type { TimelineActorType, TimelineEntryDto } from '../contract';
import type { CaseEventRecord } from '../../db/repositories/caseEventRepository';

/** A timeline entry as the API answers it: its sides are objects (stored as text, parsed once by the repository). */
export const presentCaseEvent = (e: CaseEventRecord): TimelineEntryDto => ({
  id: e.id,
  case_id: e.case_id,
  action: e.action,
  actor_type: e.actor_type as TimelineActorType,
  actor_id: e.actor_id,
  before: e.before,
  after: e.after,
  created_at: e.created_at,
});
