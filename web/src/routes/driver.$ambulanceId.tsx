import { useCallback } from 'react';
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
  const navigate = Route.useNavigate();
  // The ambulance's next call opens in place of the ended one: the URL becomes its own link (no history entry).
  const onNewCall = useCallback((id: number, next: string) => {
    void navigate({ to: '/driver/$ambulanceId', params: { ambulanceId: String(id) }, search: { t: next }, replace: true });
  }, [navigate]);
  return <DriverPage key={`${ambulanceId}:${t ?? ''}`} ambulanceId={ambulanceId} token={t ?? ''} onNewCall={onNewCall} />;
}
