import { createFileRoute } from '@tanstack/react-router';
import { OperatorShell } from '../../../features/operator/OperatorShell';

export const Route = createFileRoute('/_operator/dashboard')({ component: OperatorShell });
