import { Suspense, lazy } from 'react';
import { Outlet, createRootRouteWithContext, useMatches, type ErrorComponentProps } from '@tanstack/react-router';
import type { RouterContext } from '../router';
import { BootShell } from '../layout/BootShell';
import { RedirectHome } from '../layout/RedirectHome';

// MUI, its theme and notistack arrive in their own chunk, only for pages that use them:
// a route marked `staticData: { bare: true }` (the patient's location page) renders
// without them, so its first load is React, the router and its own code.
const loadProviders = () => import('../layout/AppProviders');
const AppProviders = lazy(loadProviders);
const ProvidedGlobalError = lazy(() => loadProviders().then((m) => ({ default: m.ProvidedGlobalError })));

type MatchLike = { staticData?: { bare?: boolean } };
const isBare = (matches: readonly MatchLike[]) => matches.some((m) => m.staticData?.bare);

function RootLayout() {
  const bare = useMatches({ select: isBare });
  if (bare) return <Outlet />;
  return (
    <Suspense fallback={<BootShell />}>
      <AppProviders>
        <Outlet />
      </AppProviders>
    </Suspense>
  );
}

function RootError({ error }: ErrorComponentProps) {
  return (
    <Suspense fallback={null}>
      <ProvidedGlobalError error={error} />
    </Suspense>
  );
}

export const Route = createRootRouteWithContext<RouterContext>()({
  // Start fetching the providers while the page's own chunks load (no waterfall).
  beforeLoad: ({ matches }) => {
    if (!isBare(matches)) void loadProviders();
  },
  component: RootLayout,
  // Until the first page's code has loaded: the same shell as web/index.html, at once.
  pendingComponent: BootShell,
  pendingMs: 0,
  errorComponent: RootError,
  notFoundComponent: RedirectHome,
});
