import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { createQueryClient } from './api/queryClient';
import { auth, initSession } from './auth/session';
import { createAppRouter } from './router';

// Authentication is decided once, before anything renders.
initSession();

const queryClient = createQueryClient();
const router = createAppRouter({ auth, queryClient });

// MUI's theme, baseline and toasts are provided by the root route, lazily, for the pages
// that use them (see routes/__root.tsx): the public location page loads without them.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
