import { type CaseDto, caseCreateSchema, trackingInitiateSchema } from '../../contract';
import { caseService } from '../../services/caseService';
import { trackingService } from '../../services/trackingService';
import { actorOf, authorize } from '../middleware/auth';
import { idempotency, writeContext } from '../middleware/idempotency';
import { validate } from '../validate';
import type { Mount } from './types';

/** The spec's e-mail/location service and tracking service, served here with staff auth. */
export const mountDispatch: Mount = (router, { svc }) => {
  router.post('/live-location', authorize('case.create'), idempotency(svc, (c: CaseDto) => ({ status: 201, body: { caseId: c.id, case: c } })), async (ctx) => {
    const input = validate(caseCreateSchema, ctx.request.body);
    const created = await caseService.create(writeContext(ctx, svc), actorOf(ctx), input, { notifyPatient: true });
    ctx.status = 201;
    ctx.body = { caseId: created.id, case: created };
  });
  router.post('/api/tracking/initiate', authorize('tracking.initiate'), async (ctx) => {
    ctx.body = await trackingService.initiate(svc, actorOf(ctx), validate(trackingInitiateSchema, ctx.request.body));
  });
};
