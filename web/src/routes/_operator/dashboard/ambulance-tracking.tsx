import { createFileRoute } from '@tanstack/react-router';
import { ScreenTitle } from '../../../layout/ScreenTitle';

// Title only for now; the screen itself is built in a later task.
export const Route = createFileRoute('/_operator/dashboard/ambulance-tracking')({
  component: () => <ScreenTitle title="Ambulance Fleet Status" />,
});
