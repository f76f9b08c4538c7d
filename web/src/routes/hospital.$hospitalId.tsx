import { createFileRoute } from '@tanstack/react-router';
import { HospitalPage } from '../features/hospital/HospitalPage';
import { linkTokenSearch } from '../features/public/linkTokenSearch';

// Public and bare like the driver's page: no MUI's providers (see __root), no sign-in. The link's token comes as ?t=.
export const Route = createFileRoute('/hospital/$hospitalId')({
  staticData: { bare: true },
  validateSearch: linkTokenSearch,
  component: HospitalRoute,
});

function HospitalRoute() {
  const { hospitalId } = Route.useParams();
  const { t } = Route.useSearch();
  return <HospitalPage key={`${hospitalId}:${t ?? ''}`} hospitalId={hospitalId} token={t ?? ''} />;
}
