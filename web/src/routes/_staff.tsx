import { createFileRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../auth/guards';
import { ROLES } from '../api/contract';
import { RoleGate } from '../auth/RoleGate';

/** Stand-alone staff pages: any signed-in admin or operator. */
export const Route = createFileRoute('/_staff')({
  beforeLoad: ({ context }) => requireSignedIn(context.auth),
  component: () => <RoleGate roles={ROLES} />,
});
