import { createFileRoute } from '@tanstack/react-router';
import { DriverPage } from '../features/driver/DriverPage';
import { linkTokenSearch } from '../features/public/linkTokenSearch';

// Public and bare: a phone page without MUI's providers (see __root). The link's token comes as ?t=.
export const Route = createFileRoute('/driver/$ambulanceId')({
  staticData: { bare: true },
  validateSearch: linkTokenSearch,
  component: DriverRoute,
});

function DriverRoute() {
  const { ambulanceId } = Route.useParams();
  const { t } = Route.useSearch();
  return <DriverPage key={`${ambulanceId}:${t ?? ''}`} ambulanceId={ambulanceId} token={t ?? ''} />;
}
