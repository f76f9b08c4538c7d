import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../auth/guards';
import { SessionGate } from '../auth/SessionGate';

/** /dashboard/*: operators only. */
export const Route = createFileRoute('/_operator')({
  beforeLoad: ({ context }) => requireRole(context.auth, ['operator']),
  component: SessionGate,
});
