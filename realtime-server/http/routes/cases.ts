import { caseHistoryQuerySchema } from '../../contract/caseLists';
import { badRequest } from '../../services/errors';
import { type CaseCreated, caseCreateSchema, caseUpdateSchema, timeCorrectionSchema } from '../../contract';
import { type CaseDispatchResponse, caseDispatchSchema } from '../../contract/queue';
import { assignmentService } from '../../services/assignmentService';
import { caseService } from '../../services/caseService';
import { queueDispatchService } from '../../services/queueDispatchService';
import { actorOf } from '../middleware/auth';
import { idempotency, writeContext } from '../middleware/idempotency';
import { routeId, validate } from '../validate';
import type { Mount } from './types';

export const mountCases: Mount = (router, { svc }) => {
  // Bare: the live board. scope=all: one page of history (contract/caseLists.ts).
  router.get('/api/cases', async (ctx) => {
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
  router.get('/api/cases/:id', async (ctx) => {
    const c = await caseService.get(svc, ctx.params.id, actorOf(ctx));
    ctx.body = { case: c, assignments: await assignmentService.listForCase(svc, c.id) };
  });
  router.post('/api/cases/:id/assignments/:assignmentId/corrections', async (ctx) => {
    const input = validate(timeCorrectionSchema, ctx.request.body);
    const assignmentId = routeId(ctx.params.assignmentId, 'Assignment not found');
    ctx.body = { assignment: await assignmentService.correctTime(svc, actorOf(ctx), ctx.params.id, assignmentId, input) };
  });
  router.get('/api/cases/:id/timeline', async (ctx) => {
    ctx.body = { timeline: await caseService.timeline(svc, ctx.params.id) };
  });
  router.post('/api/cases', idempotency(svc, (c: CaseCreated) => ({ status: 201, body: c })), async (ctx) => {
    const input = validate(caseCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await caseService.create(writeContext(ctx, svc), actorOf(ctx), input, { notifyPatient: false });
  });
  // A waiting call takes a unit: a free one, or one diverted from a less urgent call (contract/queue.ts).
  router.post('/api/cases/:id/dispatch', idempotency(svc, (r: CaseDispatchResponse) => ({ status: 200, body: r })), async (ctx) => {
    const input = validate(caseDispatchSchema, ctx.request.body);
    ctx.body = await queueDispatchService.dispatch(writeContext(ctx, svc), actorOf(ctx), ctx.params.id, input);
  });
  router.put('/api/cases/:id', async (ctx) => {
    const input = validate(caseUpdateSchema, ctx.request.body);
    ctx.body = { case: await caseService.update(svc, actorOf(ctx), ctx.params.id, input) };
  });
  router.delete('/api/cases/:id', async (ctx) => {
    await caseService.remove(svc, actorOf(ctx), ctx.params.id);
    ctx.body = { success: true, id: ctx.params.id };
  });
};
