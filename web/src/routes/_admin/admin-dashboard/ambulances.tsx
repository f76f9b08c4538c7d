import { createFileRoute } from '@tanstack/react-router';
import { ManageAmbulances } from '../../../features/admin/ambulances/ManageAmbulances';

export const Route = createFileRoute('/_admin/admin-dashboard/ambulances')({ component: ManageAmbulances });
