import { createFileRoute } from '@tanstack/react-router';
import { CasesScreen } from '../../../features/cases/CasesScreen';
import { parseCasesScreenSearch } from '../../../features/shared/caseHistory/historySearch';

// The tab, search, order and page of All Cases live in the URL (validated with the API's schema).
export const Route = createFileRoute('/_operator/dashboard/cases')({ validateSearch: parseCasesScreenSearch, component: CasesScreen });
