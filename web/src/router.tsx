import { Suspense, lazy } from 'react';
import { createRouter, type ErrorComponentProps } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { routeTree } from './routeTree.gen';
import type { Auth } from './auth/session';
import { RedirectHome } from './layout/RedirectHome';

export interface RouterContext {
  auth: Auth;
  queryClient: QueryClient;
}

// The error screen uses MUI: loaded only when something fails.
const GlobalError = lazy(() => import('./layout/GlobalError').then((m) => ({ default: m.GlobalError })));

function DefaultError({ error }: ErrorComponentProps) {
  return (
    <Suspense fallback={null}>
      <GlobalError error={error} />
    </Suspense>
  );
}

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    // Data freshness is the query cache's business.
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: DefaultError,
    defaultNotFoundComponent: RedirectHome,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
  interface StaticDataRouteOption {
    /** Render without MUI's providers (a public page that must load fast on a weak phone). */
    bare?: boolean;
  }
}
