import { createFileRoute } from '@tanstack/react-router';
import { OperatorsPage } from '../../../features/admin/operators/OperatorsPage';

export const Route = createFileRoute('/_admin/admin-dashboard/operators')({ component: OperatorsPage });
