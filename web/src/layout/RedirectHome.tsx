import { Navigate } from '@tanstack/react-router';

/** Any path the product does not know goes to the landing page. */
export function RedirectHome() {
  return <Navigate to="/" replace />;
}
