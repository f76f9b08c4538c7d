import { createFileRoute } from '@tanstack/react-router';
import { OperatorShell } from '../../../features/operator/OperatorShell';
import { NotFoundScreen } from '../../../layout/NotFoundScreen';

export const Route = createFileRoute('/_operator/dashboard')({
  component: OperatorShell,
  // An unknown /dashboard/… path: said inside the shell, with a way back.
  notFoundComponent: () => <NotFoundScreen home="/dashboard" />,
});
