import { createFileRoute } from '@tanstack/react-router';
import { CasesPage } from '../../../features/admin/cases/CasesPage';

export const Route = createFileRoute('/_admin/admin-dashboard/cases')({ component: CasesPage });
