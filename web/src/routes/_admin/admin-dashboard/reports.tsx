import { createFileRoute } from '@tanstack/react-router';
import { ReportsScreen } from '../../../features/reports/ReportsScreen';

// MUI X Charts comes with this route's own chunk only (the component is code-split).
export const Route = createFileRoute('/_admin/admin-dashboard/reports')({ component: ReportsScreen });
