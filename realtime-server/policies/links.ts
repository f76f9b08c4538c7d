import type { MailLinkLife } from '../../db/repositories/outboxRepository';
import type { CaseRow, TrackTokenRow } from '../../db/repositories/types';

/**
 * The statuses in which a patient's location link shares: while the call waits for an ambulance
 * (pending: the centre needs the patient's position most then) and while one is on it (active).
 * It stops when the call ends (closed, resolved) or is deleted.
 */
export const LOCATION_LINK_STATUSES: readonly string[] = ['pending', 'active'];
/** The statuses in which a tracking or driver link works: only while its case is active (and still holds its ambulance). */
export const TRACKING_LINK_STATUSES: readonly string[] = ['active'];
/** The mail kind that carries the patient's location link (mailTemplates.shareLocation); every other case mail carries tracking links. */
export const LOCATION_LINK_MAIL = 'share-location';

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
  /**
   * A patient's location link (its own token, checked by the case service) shares a position while
   * its call waits or is active (LOCATION_LINK_STATUSES); its holder is told 410 once the call ended.
   */
  sharesLocation: (c: Pick<CaseRow, 'status'>) => LOCATION_LINK_STATUSES.includes(c.status),
  /**
   * While a queued mail's links still work, by the status of its case: a location link's mail as
   * sharesLocation, a tracking mail only while the case is active. The retention job takes the
   * secrets out of the others (outboxRepository.redactDeadSecrets).
   */
  mailLinksLive: { byKind: { [LOCATION_LINK_MAIL]: LOCATION_LINK_STATUSES }, others: TRACKING_LINK_STATUSES } satisfies MailLinkLife,
  /** A driver link holds only while its case is active and still holds the ambulance (judged again in each write's transaction). */
  stillDrives: (c: Pick<CaseRow, 'status' | 'ambulance_id'> | undefined, ambulanceId: number) => c != null && TRACKING_LINK_STATUSES.includes(c.status) && c.ambulance_id === ambulanceId,
};
