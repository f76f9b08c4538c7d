import { createFileRoute } from '@tanstack/react-router';
import { OutboxPage } from '../../../features/admin/outbox/OutboxPage';
import { parseOutboxSearch } from '../../../features/admin/outbox/outboxSearch';

// The status, page size and page live in the URL (validated with the API's schema).
export const Route = createFileRoute('/_admin/admin-dashboard/outbox')({ validateSearch: parseOutboxSearch, component: OutboxPage });
