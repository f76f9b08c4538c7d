/**
 * The ambulance id of `/track/{ambulanceId}` (one path segment, a trailing slash allowed,
 * decoded like the router decodes a parameter), or null for any other path.
 */
export function ambulanceIdFromPath(pathname: string): string | null {
  const match = /^\/track\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1]; // not valid percent-encoding: the id as written
  }
}
