import type { Context } from 'koa';
import {
  type AmbulanceDto, type BackupAck, type UnitStatusAck, ambulanceCreateSchema, ambulanceUpdateSchema, backupRequestSchema, positionSchema, unitStatusSchema,
} from '../../contract';
import { callUnitsService } from '../../services/callUnitsService';
import { type UnitStatusSource, assignmentService } from '../../services/assignmentService';
import { type PositionSource, ambulanceService } from '../../services/ambulanceService';
import { forbidden } from '../../services/errors';
import { linkPolicy } from '../../policies/links';
import { type AppState, actorOf, sessionRequired } from '../middleware/auth';
import { linkRateLimit } from '../middleware/rateLimit';
import { noStore } from '../middleware/security';
import { keyedWrite } from '../middleware/idempotency';
import { routeId, validate } from '../validate';
import type { Mount, RouteDeps } from './types';
import { requestGrant, requestTokenIssued } from '../linkGrant';

const NOT_FOUND = 'Ambulance details not found';
export const NOT_A_DRIVER_LINK = 'This link is not valid for sending positions';

/** Staff (bearer) or the holder of this ambulance's driver token (`?t=`). */
async function positionSource(ctx: Context, { svc }: RouteDeps, ambulanceId: number): Promise<Exclude<PositionSource, { type: 'device' }>> {
  if ((ctx.state as AppState).principal) return { type: 'staff' };
  const token = typeof ctx.query.t === 'string' ? ctx.query.t : '';
  if (!token) throw sessionRequired(ctx);
  const grant = await requestGrant(ctx, svc, token);
  // One answer for every link that may not send here (unknown, a viewer's, another ambulance's), so none can be told apart.
  if (!linkPolicy.sendsPositionsFor(grant, ambulanceId)) throw forbidden(NOT_A_DRIVER_LINK);
  return { type: 'driver', caseId: grant.case_id };
}

export const mountAmbulances: Mount = (router, deps) => {
  const { svc } = deps;
  router.get('/api/ambulances', { summary: 'Every ambulance with its latest position', ok: { shape: '{ ambulances: AmbulanceDto[] }' } }, async (ctx) => {
    ctx.body = { ambulances: await ambulanceService.list(svc) };
  });
  router.post('/api/ambulances', { summary: 'Adds an ambulance', body: ambulanceCreateSchema, ok: { status: 201, shape: '{ ambulance: AmbulanceDto }' } }, ...keyedWrite(svc, (a: AmbulanceDto) => ({ status: 201, body: { ambulance: a } }), (ctx, writeSvc) =>
    ambulanceService.create(writeSvc, validate(ambulanceCreateSchema, ctx.request.body))));
  router.put('/api/ambulances/:id', { summary: 'Updates an ambulance (operators: its status only)', body: ambulanceUpdateSchema, ok: { shape: '{ ambulance: AmbulanceDto }' } }, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    const input = validate(ambulanceUpdateSchema, ctx.request.body);
    ctx.body = { ambulance: await ambulanceService.update(svc, actorOf(ctx), id, input) };
  });
  router.delete('/api/ambulances/:id', { summary: 'Deletes an ambulance', ok: { shape: '{ success: true; id: number }' } }, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    await ambulanceService.remove(svc, id, actorOf(ctx));
    ctx.body = { success: true, id };
  });
  router.get('/api/ambulances/:id/trail', { summary: "The ambulance's recent positions, oldest first", ok: { shape: 'TrailResponse' } }, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = { positions: await ambulanceService.trail(svc, id) };
  });
  // Counted like a link: a driver link (`?t=`) per token, a staff member per ambulance (a stolen or scripted session cannot flood one marker).
  const positionLimit = linkRateLimit(svc, (ctx) => {
    const principal = (ctx.state as AppState).principal;
    if (principal) return { name: `staff-position:${principal.user.id}:${ctx.params.id}`, issued: () => Promise.resolve(true) };
    const t = typeof ctx.query.t === 'string' ? ctx.query.t : '';
    return t ? { name: `driver:${t}`, issued: () => requestTokenIssued(ctx, svc, t) } : undefined;
  });
  router.post('/api/ambulances/:id/unit-status', { summary: "The unit's next step (staff, or this ambulance's driver link while its case is active)", body: unitStatusSchema, ok: { shape: 'UnitStatusAck' } }, noStore, positionLimit, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    const source = await positionSource(ctx, deps, id);
    const input = validate(unitStatusSchema, ctx.request.body);
    const from: UnitStatusSource = source.type === 'staff' ? { type: 'staff', actor: actorOf(ctx) } : source;
    ctx.body = { ok: true, assignment: await assignmentService.setUnitStatus(svc, id, input, from) } satisfies UnitStatusAck;
  });
  router.post('/api/ambulances/:id/backup', { summary: "The crew asks for another unit on its call (staff, or this ambulance's driver link)", body: backupRequestSchema, ok: { shape: 'BackupAck' } }, noStore, positionLimit, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    const source = await positionSource(ctx, deps, id);
    const input = validate(backupRequestSchema, ctx.request.body ?? {});
    const from: UnitStatusSource = source.type === 'staff' ? { type: 'staff', actor: actorOf(ctx) } : source;
    ctx.body = { ok: true, alert: await callUnitsService.requestBackup(svc, id, input, from) } satisfies BackupAck;
  });
  router.post('/api/ambulances/:id/position', { summary: "A position of the ambulance (staff, or this ambulance's driver link while its case is active)", body: positionSchema, ok: { shape: 'PositionAck' } }, noStore, positionLimit, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    const source = await positionSource(ctx, deps, id);
    const input = validate(positionSchema, ctx.request.body);
    ctx.body = await ambulanceService.recordPosition(svc, id, input, source);
  });
};
