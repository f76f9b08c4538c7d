import { ENDED as ENDED_ASSIGNMENT } from '../../db/repositories/assignmentRepository';
import type { MailLinkLife } from '../../db/repositories/outboxRepository';
import type { AssignmentRow, CaseRow, TrackTokenRow } from '../../db/repositories/types';

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

/** How long a driver link waits for its ambulance's next call after its own part in a call ended: a shift. */
export const DRIVER_STANDBY_MS = 12 * 3600_000;

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
  /**
   * A driver link holds only while its case is active and its ambulance still on it (judged again in
   * each write's transaction): `drive` is the case of the ambulance's open assignment on the link's
   * case (positionRepository driveOf), undefined when it has none.
   */
  stillDrives: (drive: Pick<CaseRow, 'status'> | undefined) => drive != null && TRACKING_LINK_STATUSES.includes(drive.status),
  /**
   * The driver link's standby (issue 25: the crew's open page hears the next call). A driver link
   * that no longer drives (`findLive` found nothing) still opens a socket that hears one thing,
   * `driver.dispatched` for ITS OWN ambulance's next call (with a new driver link for that call),
   * and nothing else (no positions, no case, no patient), until the answer here, when:
   * - it is a driver link (a patient's viewer link never waits for anything), whose row still
   *   exists: deleting the case or the ambulance deletes its links, so a deleted call's link is
   *   dead at once;
   * - its own assignment (this case, this ambulance) ENDED: cleared (the job is done) or cancelled
   *   (the unit was taken off the call: closed before arrival, reassigned, diverted to another call);
   * - it was not revoked before that end: a link revoked for another reason while its assignment was
   *   still open (none does that today) gets no standby. Send Tracker re-sending revokes nothing:
   *   the earlier links keep working, and each one's page waits alike;
   * - the end is less than DRIVER_STANDBY_MS (12 h, a shift) ago;
   * - the ambulance's NEXT call (its first assignment after the link's own, `next`) is not over and was
   *   dispatched within that standby (followsTo): a link follows its ambulance one call on, never
   *   further. The crew is mailed a new driver link at every dispatch (dispatchNotices), and an open
   *   page is handed one for the next call, so the crew keeps working; a leaked link of an earlier
   *   call is dead once the call after it is over, however many hours of its standby are left.
   * Null otherwise. What the standby socket may hear is in realtime/standby.ts.
   */
  standbyUntil: (
    grant: Pick<TrackTokenRow, 'kind' | 'revoked_at'> | undefined,
    ended: Pick<AssignmentRow, 'status' | 'cleared_at' | 'cancelled_at'> | undefined,
    now: number,
    next?: Pick<AssignmentRow, 'status' | 'dispatched_at'>,
  ): string | null => {
    if (grant?.kind !== 'driver' || !ended) return null;
    const endedAt = ended.status === 'cleared' ? ended.cleared_at : ended.status === 'cancelled' ? ended.cancelled_at : null;
    if (!endedAt) return null;
    if (grant.revoked_at != null && grant.revoked_at < endedAt) return null;
    const until = Date.parse(endedAt) + DRIVER_STANDBY_MS;
    if (!Number.isFinite(until) || until <= now) return null;
    const iso = new Date(until).toISOString();
    return !next || linkPolicy.followsTo(next, iso) ? iso : null;
  },
  /** A waiting driver link's ambulance's next call is one it follows to: still open, and dispatched before the standby's end. */
  followsTo: (next: Pick<AssignmentRow, 'status' | 'dispatched_at'>, until: string): boolean =>
    !ENDED_ASSIGNMENT.includes(next.status) && next.dispatched_at < until,
};
