import { createFileRoute } from '@tanstack/react-router';
import { NewCaseScreen } from '../../../features/dispatch/NewCaseScreen';

export const Route = createFileRoute('/_operator/dashboard/new-case')({ component: NewCaseScreen });
