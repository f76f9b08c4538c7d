import { createFileRoute } from '@tanstack/react-router';
import { AdminOverview } from '../../../features/admin/overview/AdminOverview';

export const Route = createFileRoute('/_admin/admin-dashboard/')({ component: AdminOverview });
