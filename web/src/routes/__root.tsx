import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import type { RouterContext } from '../router';
import { GlobalError } from '../layout/GlobalError';
import { RedirectHome } from '../layout/RedirectHome';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  errorComponent: GlobalError,
  notFoundComponent: RedirectHome,
});
