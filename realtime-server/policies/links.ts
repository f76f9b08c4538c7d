import type { CaseRow, TrackTokenRow } from '../../db/repositories/types';

/** What a `?t=` link (or the same token at a socket handshake) was minted as. */
export type LinkGrant = Pick<TrackTokenRow, 'kind' | 'case_id' | 'ambulance_id'>;

/**
 * The one rule for what a link lets its holder do, asked by REST routes, sockets and services
 * alike with the grant the token resolved to (undefined for an unknown, revoked or closed
 * link) or the case row the link belongs to.
 */
export const linkPolicy = {
  /** A handshake's `trackToken` opens a viewer's socket and its `driverToken` a driver's; a token of the other kind opens nothing. */
  connectsAs: (grant: LinkGrant | undefined, kind: LinkGrant['kind']): grant is LinkGrant => grant?.kind === kind,
  /** An ambulance's positions come from its own driver link only (never a viewer's, never another ambulance's). */
  sendsPositionsFor: (grant: LinkGrant | undefined, ambulanceId: number): grant is LinkGrant =>
    grant?.kind === 'driver' && grant.ambulance_id === ambulanceId,
  /** A link watches the ambulance it was made for. */
  watches: (grant: LinkGrant | undefined, ambulanceId: number): grant is LinkGrant => grant?.ambulance_id === ambulanceId,
  /** A patient's location link (its own token, checked by the case service) shares a position only while its case is active; its holder is told 410 after. */
  sharesLocation: (c: Pick<CaseRow, 'status'>) => c.status === 'active',
  /** A driver link holds only while its case is active and still holds the ambulance (judged again in each write's transaction). */
  stillDrives: (c: Pick<CaseRow, 'status' | 'ambulance_id'> | undefined, ambulanceId: number) => c?.status === 'active' && c.ambulance_id === ambulanceId,
};
