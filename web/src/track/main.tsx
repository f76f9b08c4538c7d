import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../api/queryClient';
import { TrackPage } from './TrackPage';
import { ambulanceIdFromPath } from './ambulanceIdFromPath';

// The tracking link's page (/track/{ambulanceId}?t=TOKEN) as its own small entry,
// dist/web/track.html: the same component as the SPA's route, built (vite.config.ts, its own environment)
// with Preact standing in for React (preact/compat), without MUI, the router or the staff app.
// The query cache stays: the position's polling, live merging and refetch on reconnect live in it.
const ambulanceId = ambulanceIdFromPath(window.location.pathname);
if (ambulanceId == null) {
  window.location.replace('/'); // like the app's unknown paths: to the landing page
} else {
  const token = new URLSearchParams(window.location.search).get('t') ?? '';
  createRoot(document.getElementById('root')!).render(
    <QueryClientProvider client={createQueryClient()}>
      <TrackPage ambulanceId={ambulanceId} token={token} />
    </QueryClientProvider>,
  );
}
