import type { z } from 'zod';
import { backupRequestSchema, positionSchema, unitStatusSchema } from '../contract';
import { callUnitsService } from '../services/callUnitsService';
import { assignmentService } from '../services/assignmentService';
import { linkCallRefusal } from '../edge/rateLimits';
import { mayCall } from '../policies/permissions';
import { ambulanceService } from '../services/ambulanceService';
import type { ServiceContext } from '../services/context';
import { DomainError } from '../services/errors';
import { type LifelineSocket, principalOf } from './identity';

/** The first problem of a payload, as one line for an ack. */
const firstIssue = (issues: { path: PropertyKey[]; message: string }[], what: string) => `${issues[0].path.join('.') || what}: ${issues[0].message}`;

/** What a waiting driver link (its call over, realtime/standby.ts) is answered when it tries to send. */
const WAITING = 'This call has ended; this link waits for the next call';

type Reply = (r: { ok: false; error: string } | ({ ok: true } & object)) => void;
type DriverWho = Extract<LifelineSocket['data'], { ambulanceId: number }>;

/**
 * One event a driver socket may send, checked and counted like its REST call: the table admits the
 * socket, the payload parses, the link's budget allows it; then `run` answers the ack. A refusal of
 * the service is its message; a bug is logged and answered as REST answers one.
 */
function driverEvent<S extends z.ZodType, R extends { ok: true }>(
  socket: LifelineSocket, ctx: ServiceContext,
  o: { event: 'ambulance.position' | 'unit.status' | 'unit.backup'; schema: S; what: string; refused: string; run: (who: DriverWho, input: z.infer<S>) => Promise<R> },
) {
  const who = socket.data;
  socket.on(o.event, async (raw: unknown, ack?: unknown) => {
    const reply: Reply = typeof ack === 'function' ? (ack as Reply) : () => {};
    // The table admits driver links only (the `in` check narrows the type for what follows).
    if (!mayCall(`socket:${o.event}`, principalOf(who)) || !('ambulanceId' in who)) return reply({ ok: false, error: o.refused });
    const parsed = o.schema.safeParse(raw ?? {});
    if (!parsed.success) return reply({ ok: false, error: firstIssue(parsed.error.issues, o.what) });
    const refusal = await linkCallRefusal(ctx.rateLimits, ctx.log, who.counter);
    if (refusal) return reply({ ok: false, error: refusal });
    try {
      reply(await o.run(who, parsed.data));
    } catch (err) {
      if (err instanceof DomainError) return reply({ ok: false, error: err.message });
      ctx.log.error({ err }, `${o.event} from driver socket failed`);
      reply({ ok: false, error: 'Internal server error' });
    }
  });
}

/** What a socket may send: a driver link's positions, its unit's steps and its requests for backup, checked and counted like its REST calls. */
export function listenToDriver(socket: LifelineSocket, ctx: ServiceContext) {
  if (socket.data.kind === 'standby') {
    for (const event of ['ambulance.position', 'unit.status', 'unit.backup'] as const) {
      socket.on(event, (_raw: unknown, ack?: unknown) => { if (typeof ack === 'function') (ack as Reply)({ ok: false, error: WAITING }); });
    }
    return;
  }
  driverEvent(socket, ctx, {
    event: 'ambulance.position', schema: positionSchema, what: 'position', refused: 'Only a driver link may send positions',
    run: (who, input) => ambulanceService.recordPosition(ctx, who.ambulanceId, input, { type: 'driver', caseId: who.caseId }) as Promise<{ ok: true; latest: boolean }>,
  });
  driverEvent(socket, ctx, {
    event: 'unit.status', schema: unitStatusSchema, what: 'status', refused: "Only a driver link may change its unit's status",
    run: async (who, input) => ({ ok: true as const, assignment: await assignmentService.setUnitStatus(ctx, who.ambulanceId, input, { type: 'driver', caseId: who.caseId }) }),
  });
  driverEvent(socket, ctx, {
    event: 'unit.backup', schema: backupRequestSchema, what: 'backup', refused: 'Only a driver link may ask for backup',
    run: async (who, input) => ({ ok: true as const, alert: await callUnitsService.requestBackup(ctx, who.ambulanceId, input, { type: 'driver', caseId: who.caseId }) }),
  });
}
