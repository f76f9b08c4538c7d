import type { DomainEvent } from './events';
import type { ServiceContext } from './context';

/**
 * Who a bearer token is, remembered for at most `PRINCIPAL_TTL_MS`: a busy client (a driver
 * app on REST, a dashboard's polling) then costs no session lookup per request. This node
 * forgets a session the moment it is revoked and a user the moment they change (the bus
 * tells it, before the revoking request is answered); another node's copy lives at most
 * the TTL, inside the "revoked within a second" guarantee.
 */
export const PRINCIPAL_TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

interface Entry<P> { principal: P; until: number; sessionId: number; userId: number }

export function createPrincipalCache<P extends { session: { id: number; expires_at: string }; user: { id: number } }>(ctx: Pick<ServiceContext, 'bus'>) {
  const entries = new Map<string, Entry<P>>();
  /** Counts the revocations and user changes heard: a lookup that began before one may have read what it undid. */
  let changes = 0;
  const forget = (match: (e: Entry<P>) => boolean) => { for (const [k, e] of entries) if (match(e)) entries.delete(k); };
  const onEvent = (e: DomainEvent) => {
    if (e.type === 'sessions.revoked') { const ids = new Set(e.sessionIds); forget((x) => ids.has(x.sessionId)); }
    else if (e.type === 'user.updated') forget((x) => x.userId === e.user.id);
    else if (e.type === 'user.deleted') forget((x) => x.userId === e.id);
    else return;
    changes += 1;
  };
  ctx.bus.subscribe(onEvent);
  return {
    /** Taken before a lookup and handed to `set` with its answer. */
    stamp: () => changes,
    get(tokenHash: string): P | undefined {
      const e = entries.get(tokenHash);
      if (!e) return undefined;
      const now = Date.now();
      if (e.until <= now || Date.parse(e.principal.session.expires_at) <= now) { entries.delete(tokenHash); return undefined; }
      return e.principal;
    },
    /**
     * Remembers a lookup's answer, unless a session was revoked or a user changed since the
     * lookup began (`stamp`): its answer may predate that, and this node would otherwise serve
     * a revoked session for up to the TTL. The next request simply looks it up again.
     */
    set(tokenHash: string, principal: P, stamp: number) {
      if (stamp !== changes) return;
      // A full map starts over rather than growing: the next requests look their sessions up again.
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(tokenHash, { principal, until: Date.now() + PRINCIPAL_TTL_MS, sessionId: principal.session.id, userId: principal.user.id });
    },
  };
}

export type PrincipalCache<P extends { session: { id: number; expires_at: string }; user: { id: number } }> = ReturnType<typeof createPrincipalCache<P>>;
