import { createFileRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../auth/guards';
import { RoleGate } from '../auth/RoleGate';

const ROLES = ['operator'] as const;

/** /dashboard/*: operators only. Another role's staff member is told so and stays signed in. */
export const Route = createFileRoute('/_operator')({
  beforeLoad: ({ context }) => requireSignedIn(context.auth),
  component: () => <RoleGate roles={ROLES} />,
});
