import { createFileRoute } from '@tanstack/react-router';
import { PlainPage } from '../../layout/PlainPage';
import { ScreenTitle } from '../../layout/ScreenTitle';

// Title only for now; the screen itself is built in a later task.
export const Route = createFileRoute('/_staff/ambulance-map')({
  component: () => (
    <PlainPage>
      <ScreenTitle title="Ambulance Tracker" />
    </PlainPage>
  ),
});
