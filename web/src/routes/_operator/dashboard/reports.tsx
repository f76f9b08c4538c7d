import { createFileRoute } from '@tanstack/react-router';
import { ReportsScreen } from '../../../features/reports/ReportsScreen';
import { parseReportsSearch } from '../../../features/reports/reportsSearch';

// The period lives in the URL (validated with zod). MUI X Charts comes with this route's own chunk only (the component is code-split).
export const Route = createFileRoute('/_operator/dashboard/reports')({ validateSearch: parseReportsSearch, component: Reports });

function Reports() {
  const navigate = Route.useNavigate();
  return <ReportsScreen search={Route.useSearch()} go={(search, o) => void navigate({ search, replace: o?.replace })} />;
}
