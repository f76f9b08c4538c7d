import { z } from 'zod';
import { caseHistoryQuerySchema } from '../../contract/caseLists';
import { badRequest } from '../../services/errors';
import { type AddUnitResponse, type CaseCreated, addUnitSchema, caseCreateSchema, caseUpdateSchema, standDownSchema, timeCorrectionSchema } from '../../contract';
import { type CaseDispatchResponse, caseDispatchSchema } from '../../contract/queue';
import { assignmentService } from '../../services/assignmentService';
import { caseService } from '../../services/caseService';
import { callUnitsService } from '../../services/callUnitsService';
import { queueDispatchService } from '../../services/queueDispatchService';
import { actorOf } from '../middleware/auth';
import { keyedWrite } from '../middleware/idempotency';
import { routeId, validate } from '../validate';
import type { Mount } from './types';

/** For the API document: the board takes no parameters; history is scope=all with the history query. */
const boardQuery = z.strictObject({});
const historyQuery = z.object({ scope: z.literal('all'), ...caseHistoryQuerySchema.shape });

export const mountCases: Mount = (router, { svc }) => {
  // Bare: the live board. scope=all: one page of history (contract/caseLists.ts).
  router.get('/api/cases', { summary: 'Without parameters, the live board; with scope=all, one page of history (the other parameters then narrow it)', query: [boardQuery, historyQuery], ok: { shape: 'CaseBoardResponse | CaseHistoryResponse' } }, async (ctx) => {
    const { scope, ...rest } = ctx.query;
    if (scope === undefined) {
      if (Object.keys(rest).length) throw badRequest(`${Object.keys(rest)[0]}: the board takes no parameters; history is scope=all`);
      ctx.body = await caseService.board(svc, actorOf(ctx));
      return;
    }
    if (scope !== 'all') throw badRequest('scope: must be all (or absent for the board)');
    const query = validate(caseHistoryQuerySchema, rest);
    ctx.body = await caseService.history(svc, query, actorOf(ctx));
  });
  router.get('/api/cases/:id', { summary: 'One case with its assignments', ok: { shape: 'CaseDetail' } }, async (ctx) => {
    const c = await caseService.get(svc, ctx.params.id, actorOf(ctx));
    ctx.body = { case: c, assignments: await assignmentService.listForCase(svc, c.id) };
  });
  router.post('/api/cases/:id/assignments/:assignmentId/corrections', { summary: "Corrects one recorded time of an assignment, with a reason", body: timeCorrectionSchema, ok: { shape: '{ assignment: AssignmentDto }' } }, async (ctx) => {
    const input = validate(timeCorrectionSchema, ctx.request.body);
    const assignmentId = routeId(ctx.params.assignmentId, 'Assignment not found');
    ctx.body = { assignment: await assignmentService.correctTime(svc, actorOf(ctx), ctx.params.id, assignmentId, input) };
  });
  router.get('/api/cases/:id/timeline', { summary: "The case's timeline, oldest first", ok: { shape: '{ timeline: TimelineEntryDto[] }' } }, async (ctx) => {
    ctx.body = { timeline: await caseService.timeline(svc, ctx.params.id) };
  });
  router.post('/api/cases', { summary: 'Takes a call', body: caseCreateSchema, ok: { status: 201, shape: 'CaseCreated' } }, ...keyedWrite(svc, (c: CaseCreated) => ({ status: 201, body: c }), (ctx, writeSvc) =>
    caseService.create(writeSvc, actorOf(ctx), validate(caseCreateSchema, ctx.request.body), { notifyPatient: false })));
  // A waiting call takes a unit: a free one, or one diverted from a less urgent call (contract/queue.ts).
  router.post('/api/cases/:id/dispatch', { summary: 'A waiting call takes a free unit, or one diverted from a less urgent call', body: caseDispatchSchema, ok: { shape: 'CaseDispatchResponse' } }, ...keyedWrite(svc, (r: CaseDispatchResponse) => ({ status: 200, body: r }), (ctx, writeSvc) =>
    queueDispatchService.dispatch(writeSvc, actorOf(ctx), ctx.params.id, validate(caseDispatchSchema, ctx.request.body))));
  // Several units on one call (contract/capability.ts): another unit added, or one stood down.
  router.post('/api/cases/:id/assignments', { summary: 'Adds a free unit to an open call', body: addUnitSchema, ok: { status: 201, shape: 'AddUnitResponse' } }, ...keyedWrite(svc, (r: AddUnitResponse) => ({ status: 201, body: r }), (ctx, writeSvc) =>
    callUnitsService.addUnit(writeSvc, actorOf(ctx), ctx.params.id, validate(addUnitSchema, ctx.request.body).ambulance_id)));
  router.post('/api/cases/:id/assignments/:assignmentId/cancel', { summary: 'Stands one unit down before it reaches the scene', body: standDownSchema, ok: { shape: 'StandDownResponse' } }, async (ctx) => {
    const input = validate(standDownSchema, ctx.request.body);
    const assignmentId = routeId(ctx.params.assignmentId, 'Assignment not found');
    ctx.body = await callUnitsService.standDown(svc, actorOf(ctx), ctx.params.id, assignmentId, input);
  });
  router.put('/api/cases/:id', { summary: 'Updates a case', body: caseUpdateSchema, ok: { shape: '{ case: CaseDto }' } }, async (ctx) => {
    const input = validate(caseUpdateSchema, ctx.request.body);
    ctx.body = { case: await caseService.update(svc, actorOf(ctx), ctx.params.id, input) };
  });
  router.delete('/api/cases/:id', { summary: 'Deletes a case', ok: { shape: '{ success: true; id: string }' } }, async (ctx) => {
    await caseService.remove(svc, actorOf(ctx), ctx.params.id);
    ctx.body = { success: true, id: ctx.params.id };
  });
};
