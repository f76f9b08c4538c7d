import { pathParam } from '../features/public/pathParam';

/** The ambulance id of `/track/{ambulanceId}`, or null for any other path. */
export const ambulanceIdFromPath = (pathname: string) => pathParam('track', pathname);
