import { createFileRoute } from '@tanstack/react-router';
import { CasesPage } from '../../../features/admin/cases/CasesPage';
import { parseHistorySearch } from '../../../features/shared/caseHistory/historySearch';

// The search, filters, order and page live in the URL (validated with the API's schema).
export const Route = createFileRoute('/_admin/admin-dashboard/cases')({ validateSearch: parseHistorySearch, component: CasesPage });
