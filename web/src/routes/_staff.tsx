import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../auth/guards';
import { SessionGate } from '../auth/SessionGate';

/** Stand-alone staff pages: any signed-in admin or operator. */
export const Route = createFileRoute('/_staff')({
  beforeLoad: ({ context }) => requireRole(context.auth, ['admin', 'operator']),
  component: SessionGate,
});
