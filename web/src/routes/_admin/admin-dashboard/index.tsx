import { createFileRoute } from '@tanstack/react-router';
import { ScreenTitle } from '../../../layout/ScreenTitle';

// Title only for now; the screen itself is built in a later task.
export const Route = createFileRoute('/_admin/admin-dashboard/')({
  component: () => <ScreenTitle title="Admin Dashboard" subtitle="Manage your emergency response system" />,
});
