import { createFileRoute } from '@tanstack/react-router';
import { FleetStatusScreen } from '../../../features/fleet/FleetStatusScreen';

export const Route = createFileRoute('/_operator/dashboard/ambulance-tracking')({ component: FleetStatusScreen });
