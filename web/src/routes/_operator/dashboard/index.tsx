import { createFileRoute } from '@tanstack/react-router';
import { OperatorSummary } from '../../../features/summary/OperatorSummary';

export const Route = createFileRoute('/_operator/dashboard/')({ component: OperatorSummary });
