import { type CaseCreated, type LiveLocationResponse, type TrackingInitiateResponse, caseCreateSchema, trackingInitiateSchema } from '../../contract';
import { caseService } from '../../services/caseService';
import { trackingService } from '../../services/trackingService';
import { actorOf } from '../middleware/auth';
import { keyedWrite } from '../middleware/idempotency';
import { validate } from '../validate';
import type { Mount } from './types';

const liveLocationAnswer = (c: CaseCreated) => ({ status: 201, body: { caseId: c.case.id, case: c.case, locationLink: c.locationLink, crew: c.crew ?? null } satisfies LiveLocationResponse });

/** The spec's e-mail/location service and tracking service, served here with staff auth. */
export const mountDispatch: Mount = (router, { svc }) => {
  router.post('/live-location', { summary: "Takes a call and mails the patient a link to share their location", body: caseCreateSchema, ok: { status: 201, shape: 'LiveLocationResponse' } }, ...keyedWrite(svc, liveLocationAnswer, (ctx, writeSvc) =>
    caseService.create(writeSvc, actorOf(ctx), validate(caseCreateSchema, ctx.request.body), { notifyPatient: true })));
  router.post('/api/tracking/initiate', { summary: 'Assigns an ambulance to a case and sends the patient and driver their tracking links', body: trackingInitiateSchema, ok: { shape: 'TrackingInitiateResponse' } }, ...keyedWrite(svc, (r: TrackingInitiateResponse) => ({ status: 200, body: r }), (ctx, writeSvc) =>
    trackingService.initiate(writeSvc, actorOf(ctx), validate(trackingInitiateSchema, ctx.request.body))));
};
