import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../contract';
import { type LinkCounter, linkCounter } from '../edge/rateLimits';
import { linkPolicy } from '../policies/links';
import type { Principal } from '../policies/permissions';
import { authService } from '../services/authService';
import type { ServiceContext } from '../services/context';
import { hashToken } from '../services/tokens';
import { type StandbyGrant, trackingService } from '../services/trackingService';
import { hospitalOfLink } from '../services/hospitalService';

/** Who a socket is, decided once at the handshake. */
export type SocketIdentity =
  | { kind: 'staff'; userId: number; role: 'admin' | 'operator'; sessionId: number; expiresAt: string }
  /** `linkKey` names the link (its hashed token) for the per-link socket cap; `counter` is what its calls count under. */
  | { kind: 'viewer' | 'driver'; ambulanceId: number; caseId: string; linkKey: string; counter: LinkCounter }
  /**
   * A driver link whose call ended, waiting for its ambulance's next call (policies/links.ts
   * standbyUntil): it hears only that (realtime/standby.ts) and may send nothing. `offered` is the
   * assignment it was last offered a link for (so one dispatch offers once).
   */
  | { kind: 'standby'; standby: StandbyGrant; linkKey: string; offered?: number }
  /** A hospital's own page (its link): it hears `hospital.changed` for that hospital, nothing else, and sends nothing. */
  | { kind: 'hospital'; hospitalId: number; linkKey: string };

/** What one node tells the others (`io.serverSideEmit`, clustered only). */
export interface ServerSideEvents {
  /** An ambulance has a new call: each node offers it to its own waiting driver links (realtime/standby.ts). */
  'standby.offer': (ambulanceId: number) => void;
}

export type LifelineServer = Server<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketIdentity>;
export type LifelineSocket = Socket<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketIdentity>;

/**
 * The socket's principal in policies/permissions.ts `access`. A waiting driver link connects as
 * the driver link it is; it is given no handler that sends (realtime/driverEvents.ts refuses it).
 */
export const principalOf = (who: SocketIdentity): Principal => (who.kind === 'staff' ? who.role : who.kind === 'standby' ? 'driver' : who.kind);

/** A hospital page's handshake: its hospital's id and link token; undefined for any bad link. */
async function identifyHospital(ctx: ServiceContext, hospitalId: unknown, token: string): Promise<SocketIdentity | undefined> {
  const id = typeof hospitalId === 'number' ? hospitalId : typeof hospitalId === 'string' && /^\d{1,10}$/.test(hospitalId) ? Number(hospitalId) : NaN;
  const h = await hospitalOfLink(ctx.db, id, token).catch(() => undefined);
  return h && { kind: 'hospital', hospitalId: h.id, linkKey: hashToken(token) };
}

/** The identity a handshake's `auth` proves, or undefined. `client` is its client key (for the link counters). */
export async function identify(ctx: ServiceContext, auth: Record<string, unknown>, client: string): Promise<SocketIdentity | undefined> {
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : undefined);
  const token = str(auth.token);
  if (token) {
    const p = await authService.authenticate(ctx, token);
    return p && { kind: 'staff', userId: p.user.id, role: p.user.role, sessionId: p.session.id, expiresAt: p.session.expires_at };
  }
  const hospitalToken = str(auth.hospitalToken);
  if (hospitalToken) return identifyHospital(ctx, auth.hospitalId, hospitalToken);
  for (const kind of ['trackToken', 'driverToken'] as const) {
    const t = str(auth[kind]);
    if (!t) continue;
    const grant = await trackingService.resolveGrant(ctx, t);
    const wanted = kind === 'trackToken' ? 'viewer' : 'driver';
    // The link's calls are counted under the same keys as its REST calls from this client.
    if (linkPolicy.connectsAs(grant, wanted)) {
      return { kind: wanted, ambulanceId: grant.ambulance_id, caseId: grant.case_id, linkKey: hashToken(t), counter: linkCounter(`${wanted}:${t}`, client, { publicCaller: true }) };
    }
    // A driver link whose call is over may still wait for its ambulance's next one.
    const standby = !grant && wanted === 'driver' ? await trackingService.standby(ctx, t) : undefined;
    return standby && { kind: 'standby', standby, linkKey: hashToken(t) };
  }
  return undefined;
}
