import { createFileRoute } from '@tanstack/react-router';
import { AdminShell } from '../../../features/admin/AdminShell';

export const Route = createFileRoute('/_admin/admin-dashboard')({ component: AdminShell });
