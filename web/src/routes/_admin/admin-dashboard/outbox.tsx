import { createFileRoute } from '@tanstack/react-router';
import { ScreenTitle } from '../../../layout/ScreenTitle';

// Title only for now; the screen itself is built in a later task.
export const Route = createFileRoute('/_admin/admin-dashboard/outbox')({
  component: () => <ScreenTitle title="Outbox" subtitle="Every queued and sent message" />,
});
