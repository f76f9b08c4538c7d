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

/** What a socket may send: a driver link's positions and its unit's steps, checked and counted like its REST calls. */
export function listenToDriver(socket: LifelineSocket, ctx: ServiceContext) {
  const who = socket.data;
  if (who.kind === 'standby') {
    socket.on('ambulance.position', (_raw, ack) => { if (typeof ack === 'function') ack({ ok: false, error: WAITING }); });
    socket.on('unit.status', (_raw, ack) => { if (typeof ack === 'function') ack({ ok: false, error: WAITING }); });
    socket.on('unit.backup', (_raw, ack) => { if (typeof ack === 'function') ack({ ok: false, error: WAITING }); });
    return;
  }
  socket.on('ambulance.position', async (raw, ack) => {
    const reply = typeof ack === 'function' ? ack : () => {};
    // The table admits driver links only (`who.kind === 'staff'` narrows the type for what follows).
    if (!mayCall('socket:ambulance.position', principalOf(who)) || who.kind === 'staff') return reply({ ok: false, error: 'Only a driver link may send positions' });
    const parsed = positionSchema.safeParse(raw);
    if (!parsed.success) return reply({ ok: false, error: firstIssue(parsed.error.issues, 'position') });
    const refusal = await linkCallRefusal(ctx.rateLimits, ctx.log, who.counter);
    if (refusal) return reply({ ok: false, error: refusal });
    try {
      reply(await ambulanceService.recordPosition(ctx, who.ambulanceId, parsed.data, { type: 'driver', caseId: who.caseId }));
    } catch (err) {
      if (err instanceof DomainError) return reply({ ok: false, error: err.message });
      ctx.log.error({ err }, 'position from driver socket failed');
      reply({ ok: false, error: 'Internal server error' });
    }
  });

  socket.on('unit.status', async (raw, ack) => {
    const reply = typeof ack === 'function' ? ack : () => {};
    if (!mayCall('socket:unit.status', principalOf(who)) || who.kind === 'staff') return reply({ ok: false, error: "Only a driver link may change its unit's status" });
    const parsed = unitStatusSchema.safeParse(raw);
    if (!parsed.success) return reply({ ok: false, error: firstIssue(parsed.error.issues, 'status') });
    const refusal = await linkCallRefusal(ctx.rateLimits, ctx.log, who.counter);
    if (refusal) return reply({ ok: false, error: refusal });
    try {
      reply({ ok: true, assignment: await assignmentService.setUnitStatus(ctx, who.ambulanceId, parsed.data, { type: 'driver', caseId: who.caseId }) });
    } catch (err) {
      if (err instanceof DomainError) return reply({ ok: false, error: err.message });
      ctx.log.error({ err }, 'unit status from driver socket failed');
      reply({ ok: false, error: 'Internal server error' });
    }
  });

  socket.on('unit.backup', async (raw, ack) => {
    const reply = typeof ack === 'function' ? ack : () => {};
    if (!mayCall('socket:unit.backup', principalOf(who)) || who.kind === 'staff') return reply({ ok: false, error: 'Only a driver link may ask for backup' });
    const parsed = backupRequestSchema.safeParse(raw ?? {});
    if (!parsed.success) return reply({ ok: false, error: firstIssue(parsed.error.issues, 'backup') });
    const refusal = await linkCallRefusal(ctx.rateLimits, ctx.log, who.counter);
    if (refusal) return reply({ ok: false, error: refusal });
    try {
      reply({ ok: true, alert: await callUnitsService.requestBackup(ctx, who.ambulanceId, parsed.data, { type: 'driver', caseId: who.caseId }) });
    } catch (err) {
      if (err instanceof DomainError) return reply({ ok: false, error: err.message });
      ctx.log.error({ err }, 'backup request from driver socket failed');
      reply({ ok: false, error: 'Internal server error' });
    }
  });
}
