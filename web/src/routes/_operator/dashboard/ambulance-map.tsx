import { createFileRoute } from '@tanstack/react-router';
import { AmbulanceMapScreen } from '../../../features/map/AmbulanceMapScreen';

// Leaflet and its CSS come with this route's own chunk (the component is code-split).
export const Route = createFileRoute('/_operator/dashboard/ambulance-map')({ component: () => <AmbulanceMapScreen /> });
