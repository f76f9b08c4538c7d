import { createFileRoute } from '@tanstack/react-router';
import { FleetStatusScreen } from '../../../features/fleet/FleetStatusScreen';
import { parseFleetSearch } from '../../../features/fleet/fleetSearch';

// The filter lives in the URL (validated with zod).
export const Route = createFileRoute('/_operator/dashboard/ambulance-tracking')({ validateSearch: parseFleetSearch, component: FleetStatusScreen });
