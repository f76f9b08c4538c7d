import { createFileRoute } from '@tanstack/react-router';
import { AmbulanceMapScreen } from '../../features/map/AmbulanceMapScreen';

// The same screen as /dashboard/ambulance-map, on its own page; Leaflet loads with this route only.
export const Route = createFileRoute('/_staff/ambulance-map')({ component: () => <AmbulanceMapScreen standalone /> });
