import { createRoot } from 'react-dom/client';
import { LocationSharePage } from '../features/public/LocationSharePage';
import { caseIdFromPath } from './caseIdFromPath';

// The patient's page (/location/{caseId}?t=TOKEN) as its own small entry, dist/web/location.html: the
// same component as the SPA's route, built (vite.config.ts, its own environment) with Preact standing in
// for React (preact/compat), without the router, the query cache or the staff app's code.
const caseId = caseIdFromPath(window.location.pathname);
if (caseId == null) {
  window.location.replace('/'); // like the app's unknown paths: to the landing page
} else {
  const token = new URLSearchParams(window.location.search).get('t') ?? '';
  createRoot(document.getElementById('root')!).render(<LocationSharePage caseId={caseId} token={token} />);
}
