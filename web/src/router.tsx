import { createRouter } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { routeTree } from './routeTree.gen';
import type { Auth } from './auth/session';
import { GlobalError } from './layout/GlobalError';
import { RedirectHome } from './layout/RedirectHome';

export interface RouterContext {
  auth: Auth;
  queryClient: QueryClient;
}

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    // Data freshness is the query cache's business.
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: GlobalError,
    defaultNotFoundComponent: RedirectHome,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
