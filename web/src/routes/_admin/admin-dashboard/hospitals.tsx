import { createFileRoute } from '@tanstack/react-router';
import { ManageHospitals } from '../../../features/admin/hospitals/ManageHospitals';

export const Route = createFileRoute('/_admin/admin-dashboard/hospitals')({ component: ManageHospitals });
