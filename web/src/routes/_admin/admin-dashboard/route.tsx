import { createFileRoute } from '@tanstack/react-router';
import { AdminShell } from '../../../features/admin/AdminShell';
import { NotFoundScreen } from '../../../layout/NotFoundScreen';

export const Route = createFileRoute('/_admin/admin-dashboard')({
  component: AdminShell,
  // An unknown /admin-dashboard/… path: said inside the portal, with a way back.
  notFoundComponent: () => <NotFoundScreen home="/admin-dashboard" />,
});
