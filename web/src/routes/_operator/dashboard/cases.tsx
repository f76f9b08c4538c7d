import { createFileRoute } from '@tanstack/react-router';
import { CasesScreen } from '../../../features/cases/CasesScreen';

export const Route = createFileRoute('/_operator/dashboard/cases')({ component: CasesScreen });
