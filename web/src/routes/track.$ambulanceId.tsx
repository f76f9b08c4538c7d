import { createFileRoute } from '@tanstack/react-router';
import { TrackPage } from '../track/TrackPage';

/** The link's token comes as ?t=; kept as text whatever it looks like. */
export const Route = createFileRoute('/track/$ambulanceId')({
  validateSearch: (search: Record<string, unknown>): { t?: string } => (search.t == null ? {} : { t: String(search.t) }),
  component: TrackRoute,
});

function TrackRoute() {
  const { ambulanceId } = Route.useParams();
  const { t } = Route.useSearch();
  return <TrackPage key={`${ambulanceId}:${t ?? ''}`} ambulanceId={ambulanceId} token={t ?? ''} />;
}
