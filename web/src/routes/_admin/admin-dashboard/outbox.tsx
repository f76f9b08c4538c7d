import { createFileRoute } from '@tanstack/react-router';
import { OutboxPage } from '../../../features/admin/outbox/OutboxPage';

export const Route = createFileRoute('/_admin/admin-dashboard/outbox')({ component: OutboxPage });
