import type { OutboxMessageDto } from '../contract';
import type { OutboxRow } from '../../db/repositories/types';

export const presentOutbox = (m: OutboxRow): OutboxMessageDto => ({
  id: m.id,
  kind: m.kind,
  to: m.to_address,
  subject: m.subject,
  text: m.body_text,
  links: JSON.parse(m.links) as string[],
  status: m.status,
  attempts: m.attempts,
  last_error: m.last_error,
  case_id: m.case_id,
  created_at: m.created_at,
  sent_at: m.sent_at,
});
