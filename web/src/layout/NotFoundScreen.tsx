import { useLocation } from '@tanstack/react-router';
import Box from '@mui/material/Box';
import { SearchIcon } from './icons';
import { NoticeCard } from './NoticeCard';

/**
 * An unknown path under a staff home (e.g. /dashboard/casess), shown inside the app frame:
 * the user keeps the sidebar and is told, instead of being sent to the landing page.
 */
export function NotFoundScreen({ home }: { home: '/dashboard' | '/admin-dashboard' }) {
  const pathname = useLocation({ select: (l) => l.pathname });
  return (
    <NoticeCard icon={<SearchIcon color="action" sx={{ fontSize: 56, mb: 1 }} />} title="Page not found" to={home} action="Back to the dashboard">
      There is no page at <Box component="code" sx={{ wordBreak: 'break-all' }}>{pathname}</Box>. The link may be mistyped or out of date.
    </NoticeCard>
  );
}
