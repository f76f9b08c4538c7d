import { createFileRoute } from '@tanstack/react-router';
import { ManageAmbulances } from '../../features/admin/ambulances/ManageAmbulances';
import { BackToDashboard } from '../../features/admin/ambulances/BackToDashboard';
import { PlainPage } from '../../layout/PlainPage';

/** Any signed-in staff member: admins manage the fleet, operators change statuses. */
export const Route = createFileRoute('/_staff/manage-ambulances')({
  component: () => (
    <PlainPage>
      <BackToDashboard />
      <ManageAmbulances />
    </PlainPage>
  ),
});
