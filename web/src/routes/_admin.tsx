import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../auth/guards';
import { SessionGate } from '../auth/SessionGate';

/** /admin-dashboard/*: admins only; any other session is cleared (SPEC §4). */
export const Route = createFileRoute('/_admin')({
  beforeLoad: ({ context }) => requireRole(context.auth, ['admin'], true),
  component: SessionGate,
});
