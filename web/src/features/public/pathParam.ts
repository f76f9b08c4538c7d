/**
 * The one path segment after `/{prefix}/` (a trailing slash allowed, decoded like the router
 * decodes a parameter), or null for any other path. The public pages have no router.
 */
export function pathParam(prefix: string, pathname: string): string | null {
  const match = new RegExp(`^/${prefix}/([^/]+)/?$`).exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1]; // not valid percent-encoding: the id as written
  }
}
