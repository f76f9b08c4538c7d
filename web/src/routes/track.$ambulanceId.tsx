import { createFileRoute } from '@tanstack/react-router';
import { TrackPage } from '../track/TrackPage';
import { linkTokenSearch } from '../features/public/linkTokenSearch';

/** The link's token comes as ?t=; kept as text whatever it looks like. */
export const Route = createFileRoute('/track/$ambulanceId')({
  validateSearch: linkTokenSearch,
  component: TrackRoute,
});

function TrackRoute() {
  const { ambulanceId } = Route.useParams();
  const { t } = Route.useSearch();
  return <TrackPage key={`${ambulanceId}:${t ?? ''}`} ambulanceId={ambulanceId} token={t ?? ''} />;
}
