import { pathParam } from '../features/public/pathParam';

/** The case id of `/location/{caseId}`, or null for any other path. */
export const caseIdFromPath = (pathname: string) => pathParam('location', pathname);
