import type { TimelineActorType, TimelineEntryDto } from '../contract';
import type { CaseEventRow } from '../../db/repositories/types';

export const presentCaseEvent = (e: CaseEventRow): TimelineEntryDto => ({
  id: e.id,
  case_id: e.case_id,
  action: e.action,
  actor_type: e.actor_type as TimelineActorType,
  actor_id: e.actor_id,
  before: e.before,
  after: e.after,
  created_at: e.created_at,
});
