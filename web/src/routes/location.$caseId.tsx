import { createFileRoute } from '@tanstack/react-router';
import { LocationSharePage } from '../features/public/LocationSharePage';
import { linkTokenSearch } from '../features/public/linkTokenSearch';

// Public and bare: rendered without MUI's providers so the page stays small (see __root).
// A patient's link is answered by the server with the page's own small entry
// (src/location/main.tsx, dist/web/location.html); this route is the same page for
// navigation inside the app, the Vite dev server and a build without that entry.
export const Route = createFileRoute('/location/$caseId')({
  staticData: { bare: true },
  /** The link's own token comes as ?t=; kept as text whatever it looks like. */
  validateSearch: linkTokenSearch,
  component: LocationRoute,
});

function LocationRoute() {
  const { caseId } = Route.useParams();
  const { t } = Route.useSearch();
  return <LocationSharePage key={`${caseId}:${t ?? ''}`} caseId={caseId} token={t ?? ''} />;
}
