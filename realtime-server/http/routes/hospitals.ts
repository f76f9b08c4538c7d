import type { Context } from 'koa';
import {
  type DestinationResponse, type HospitalDto, type HospitalLinkResponse, type HospitalPageResponse, type HospitalSuggestionsResponse, type PrealertResponse,
  destinationSchema, hospitalCreateSchema, hospitalStatusSchema, hospitalSuggestionsQuery, hospitalUpdateSchema, prealertSchema,
} from '../../contract';
import { NOT_YOUR_ASSIGNMENT, assignmentService } from '../../services/assignmentService';
import { type CrewOrStaff, destinationService } from '../../services/destinationService';
import { forbidden } from '../../services/errors';
import { HOSPITAL_LINK_NOT_FOUND, hospitalService } from '../../services/hospitalService';
import { type AppState, actorOf, sessionRequired } from '../middleware/auth';
import { keyedWrite } from '../middleware/idempotency';
import { linkRateLimit } from '../middleware/rateLimit';
import { noStore } from '../middleware/security';
import { requestGrant, requestTokenIssued } from '../linkGrant';
import { routeId, validate } from '../validate';
import type { Mount, RouteDeps } from './types';

const NOT_FOUND = 'Hospital not found';
const linkToken = (ctx: { query: Record<string, unknown> }) => (typeof ctx.query.t === 'string' ? ctx.query.t : '');

/** Staff (bearer), or the holder of a driver link (`?t=`) of the call the request names: the service checks it is the link's own unit. */
async function crewOrStaff(ctx: Context, { svc }: RouteDeps): Promise<CrewOrStaff> {
  if ((ctx.state as AppState).principal) return { type: 'staff', actor: actorOf(ctx) };
  const token = linkToken(ctx);
  if (!token) throw sessionRequired(ctx);
  // A live grant: its call is active and its unit still on it (trackingService.resolveGrant).
  const grant = await requestGrant(ctx, svc, token);
  if (grant?.kind !== 'driver') throw forbidden(NOT_YOUR_ASSIGNMENT);
  return { type: 'driver', caseId: grant.case_id, ambulanceId: grant.ambulance_id };
}

/**
 * Hospitals (issue 30): staff read them and rank them for a conveyance; admins manage them and make
 * each one's page link; a unit's destination and pre-alert come from staff or its crew; a hospital's
 * own page (its link, `?t=`) reads what is coming to it, acknowledges pre-alerts, presses handover
 * and sets its diversion status.
 */
export const mountHospitals: Mount = (router, deps) => {
  const { svc } = deps;
  // Counted like the other links: a driver link per token; staff per member and call.
  const crewLimit = linkRateLimit(svc, (ctx) => {
    const principal = (ctx.state as AppState).principal;
    if (principal) return { name: `staff-destination:${principal.user.id}:${ctx.params.id ?? 'suggestions'}`, issued: () => Promise.resolve(true) };
    const t = linkToken(ctx);
    return t ? { name: `driver:${t}`, issued: () => requestTokenIssued(ctx, svc, t) } : undefined;
  });
  router.get('/api/hospitals', { summary: 'Every hospital', ok: { shape: '{ hospitals: HospitalDto[] }' } }, async (ctx) => {
    ctx.body = { hospitals: await hospitalService.list(svc) };
  });
  router.get('/api/hospitals/suggestions', { summary: "Hospitals ranked by arrival from a point, with the needs they meet; a hospital on diversion is flagged and ranked after open ones (staff, or a crew's driver link)", query: [hospitalSuggestionsQuery], ok: { shape: 'HospitalSuggestionsResponse' } }, noStore, crewLimit, async (ctx) => {
    await crewOrStaff(ctx, deps);
    const { needs, ...from } = validate(hospitalSuggestionsQuery, ctx.query);
    ctx.body = (await hospitalService.suggest(svc, from, needs)) satisfies HospitalSuggestionsResponse;
  });
  router.post('/api/hospitals', { summary: 'Adds a hospital', body: hospitalCreateSchema, ok: { status: 201, shape: '{ hospital: HospitalDto }' } }, ...keyedWrite(svc, (h: HospitalDto) => ({ status: 201, body: { hospital: h } }), (ctx, writeSvc) =>
    hospitalService.create(writeSvc, actorOf(ctx), validate(hospitalCreateSchema, ctx.request.body))));
  router.put('/api/hospitals/:id', { summary: "Edits a hospital (its status: who set it and when is kept)", body: hospitalUpdateSchema, ok: { shape: '{ hospital: HospitalDto }' } }, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = { hospital: await hospitalService.update(svc, actorOf(ctx), id, validate(hospitalUpdateSchema, ctx.request.body)) };
  });
  router.delete('/api/hospitals/:id', { summary: 'Deletes a hospital (calls keep its name as their destination)', ok: { shape: '{ success: true; id: number }' } }, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    await hospitalService.remove(svc, id);
    ctx.body = { success: true, id };
  });
  router.post('/api/hospitals/:id/link', { summary: "A new link to the hospital's page, answered once; it replaces the one before", ok: { shape: 'HospitalLinkResponse' } }, noStore, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = (await hospitalService.makeLink(svc, id)) satisfies HospitalLinkResponse;
  });

  router.post('/api/cases/:id/assignments/:assignmentId/destination', { summary: "Where the unit conveys its patient (staff, or the unit's driver link)", body: destinationSchema, ok: { shape: 'DestinationResponse' } }, noStore, crewLimit, async (ctx) => {
    const from = await crewOrStaff(ctx, deps);
    const input = validate(destinationSchema, ctx.request.body);
    const assignmentId = routeId(ctx.params.assignmentId, 'Assignment not found');
    ctx.body = (await destinationService.setDestination(svc, ctx.params.id, assignmentId, input, from)) satisfies DestinationResponse;
  });
  router.post('/api/cases/:id/assignments/:assignmentId/prealert', { summary: "An ATMIST pre-alert to the unit's destination (staff, or the unit's driver link)", body: prealertSchema, ok: { status: 201, shape: 'PrealertResponse' } }, noStore, crewLimit, async (ctx) => {
    const from = await crewOrStaff(ctx, deps);
    const input = validate(prealertSchema, ctx.request.body ?? {});
    const assignmentId = routeId(ctx.params.assignmentId, 'Assignment not found');
    ctx.status = 201;
    ctx.body = (await destinationService.sendPrealert(svc, ctx.params.id, assignmentId, input, from)) satisfies PrealertResponse;
  });

  // A hospital's page: counted per link (a link never issued counts apart, as every public link's).
  const hospitalLimit = linkRateLimit(svc, (ctx) => {
    const t = linkToken(ctx);
    return t ? { name: `hospital:${t}`, issued: () => hospitalService.linkIssued(svc, Number(ctx.params.id), t) } : undefined;
  });
  const hospitalId = (ctx: Context) => routeId((ctx.params as { id: string }).id, HOSPITAL_LINK_NOT_FOUND);
  router.get('/api/hospital/:id', { summary: "A hospital's own page (?t= its link): units coming to it and arrived, with pre-alerts; no patient's name, contact or address", ok: { shape: 'HospitalPageResponse' } }, noStore, hospitalLimit, async (ctx) => {
    ctx.body = (await hospitalService.page(svc, hospitalId(ctx), linkToken(ctx))) satisfies HospitalPageResponse;
  });
  router.put('/api/hospital/:id/status', { summary: 'The hospital sets its diversion status (?t= its link; a diversion needs a reason)', body: hospitalStatusSchema, ok: { shape: '{ hospital: HospitalDto }' } }, noStore, hospitalLimit, async (ctx) => {
    const id = hospitalId(ctx);
    const input = validate(hospitalStatusSchema, ctx.request.body);
    ctx.body = { hospital: await hospitalService.setStatusByLink(svc, id, linkToken(ctx), input) };
  });
  router.post('/api/hospital/:id/prealerts/:prealertId/ack', { summary: 'The hospital acknowledges a pre-alert (?t= its link)', ok: { shape: 'PrealertResponse' } }, noStore, hospitalLimit, async (ctx) => {
    const id = hospitalId(ctx);
    ctx.body = (await hospitalService.acknowledge(svc, id, linkToken(ctx), routeId(ctx.params.prealertId, 'Pre-alert not found'))) satisfies PrealertResponse;
  });
  router.post('/api/hospital/:id/handover/:assignmentId', { summary: 'The hospital presses "Handover complete" for a unit conveyed to it (?t= its link; eTimes.12)', ok: { shape: 'UnitStatusAck' } }, noStore, hospitalLimit, async (ctx) => {
    const id = hospitalId(ctx);
    const assignmentId = routeId(ctx.params.assignmentId, 'Assignment not found');
    const { ambulanceId } = await hospitalService.unitArrivedHere(svc, id, linkToken(ctx), assignmentId);
    ctx.body = { ok: true, assignment: await assignmentService.setUnitStatus(svc, ambulanceId, { status: 'handover' }, { type: 'hospital', hospitalId: id, assignmentId }) };
  });
};
