import Box from '@mui/material/Box';
import type { Role } from '../api/contract';
import { ShieldIcon } from '../layout/icons';
import { NoticeCard } from '../layout/NoticeCard';
import { PlainPage } from '../layout/PlainPage';
import { homeOf } from './guards';
import { SessionGate } from './SessionGate';
import { useSession } from './useSession';

const PAGE_FOR: Record<Role, string> = { admin: 'This page is for administrators', operator: 'This page is for operators' };
const ROLE_NAME: Record<Role, string> = { admin: 'an administrator', operator: 'an operator' };

/**
 * Body of a role's pathless layout. A staff member of another role who follows a link here
 * is told so and offered their own dashboard; the session is kept (signing them out would
 * lose their work and say nothing about why).
 */
export function RoleGate({ roles }: { roles: readonly Role[] }) {
  const session = useSession();
  if (!session || roles.includes(session.role)) return <SessionGate />;
  return (
    <PlainPage>
      <NoticeCard icon={<ShieldIcon color="action" sx={{ fontSize: 56, mb: 1 }} />} title={PAGE_FOR[roles[0]]} to={homeOf(session.role)} action="Back to your dashboard">
        You are signed in as <Box component="strong" sx={{ color: 'text.primary' }}>{session.name}</Box>, {ROLE_NAME[session.role]}, and you are still signed in.
      </NoticeCard>
    </PlainPage>
  );
}
