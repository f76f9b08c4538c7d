import { createFileRoute } from '@tanstack/react-router';
import { LocationSharePage } from '../features/public/LocationSharePage';

// Public and bare: rendered without MUI's providers so the page stays small (see __root).
export const Route = createFileRoute('/location/$caseId')({
  staticData: { bare: true },
  component: LocationRoute,
});

function LocationRoute() {
  const { caseId } = Route.useParams();
  return <LocationSharePage key={caseId} caseId={caseId} />;
}
