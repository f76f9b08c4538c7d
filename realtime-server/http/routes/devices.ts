import type { Context, Next } from 'koa';
import coBody from 'co-body';
import { z } from 'zod';
import {
  type DeviceReport, type PositionAck, deviceIdSchema, osmandJsonSchema, osmandParamsSchema, owntracksLocationSchema, owntracksMessageSchema, positionSchema,
} from '../../contract';
import { type DeviceProtocol, deviceHash, deviceService } from '../../services/deviceService';
import { DomainError, badRequest, unauthorized } from '../../services/errors';
import type { ServiceContext } from '../../services/context';
import { actorOf } from '../middleware/auth';
import { linkRateLimit } from '../middleware/rateLimit';
import { noStore } from '../middleware/security';
import { routeId, validate } from '../validate';
import type { Mount } from './types';

export const UNKNOWN_DEVICE = "Unknown device id: an admin issues the ambulance's device id in Manage Ambulances";
export const OWNTRACKS_REALM = 'Basic realm="Lifeline"';
/** A form body of OsmAnd fields is a few hundred bytes. */
const FORM_LIMIT = '16kb';
const JSON_TYPES = ['application/json', 'application/*+json'];

/** What the reading step found: the device secret's hash (never the secret) and the request's payload. */
interface DeviceRequest { hash?: string; payload: unknown; json: boolean }
const deviceRequest = (ctx: Context) => (ctx.state as { device: DeviceRequest }).device;

/** The answer to a report the device itself marks as no fix: acknowledged (so it is not resent) and not stored. */
export type IgnoredReport = { ok: true; ignored: string };

const secretHash = (raw: unknown) => {
  const id = deviceIdSchema.safeParse(raw);
  return id.success ? deviceHash(id.data) : undefined;
};

/**
 * OsmAnd's parameters: the query string (Traccar Client posts with an empty body), a form
 * body's fields over it, or the JSON form.
 */
async function readOsmand(ctx: Context, next: Next) {
  if (ctx.method === 'POST' && ctx.request.is(JSON_TYPES)) {
    const body = ctx.request.body as { device_id?: unknown } | undefined;
    (ctx.state as { device: DeviceRequest }).device = { hash: secretHash(body?.device_id), payload: body, json: true };
    await next();
    return;
  }
  const params: Record<string, unknown> = { ...ctx.query };
  if (ctx.method === 'POST' && ctx.request.is('application/x-www-form-urlencoded')) {
    let text: string;
    try {
      text = (await coBody.text(ctx, { limit: FORM_LIMIT })) as string;
    } catch (err) {
      throw (err as { status?: number }).status === 413 ? new DomainError(413, 'Request body is too large') : badRequest('Request body is not a valid form');
    }
    for (const [k, v] of new URLSearchParams(text)) params[k] = v;
  }
  (ctx.state as { device: DeviceRequest }).device = { hash: secretHash(params.id ?? params.deviceid), payload: params, json: false };
  await next();
}

/** OwnTracks' HTTP Basic credentials: the password is the device id; the username is the crew's to choose. */
async function readOwntracks(ctx: Context, next: Next) {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(ctx.get('authorization'));
  const decoded = m ? Buffer.from(m[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  (ctx.state as { device: DeviceRequest }).device = { hash: colon >= 0 ? secretHash(decoded.slice(colon + 1)) : undefined, payload: ctx.request.body, json: true };
  await next();
}

/** The position of an accepted report, stored through the driver page's writer; the ack once it is committed. */
async function store(svc: ServiceContext, ambulanceId: number, report: DeviceReport, protocol: DeviceProtocol): Promise<PositionAck | IgnoredReport> {
  if ('ignored' in report) return { ok: true, ignored: report.ignored };
  return deviceService.record(svc, ambulanceId, validate(positionSchema, report.position), protocol);
}

export const mountDevices: Mount = (router, { svc }) => {
  /** Admins: a new device id for the ambulance, answered this once (only its hash is kept); the earlier one stops working. */
  router.post('/api/ambulances/:id/device', { summary: "A new device id for the ambulance's GPS app or tracker, answered this once; the earlier one stops working", ok: { shape: 'DeviceIdentityResponse' } }, noStore, async (ctx) => {
    ctx.body = await deviceService.issue(svc, actorOf(ctx), routeId(ctx.params.id, 'Ambulance details not found'));
  });

  // Counted like a driver link, per device (by its secret's hash, so no counter store holds a secret) and client.
  const deviceLimit = linkRateLimit(svc, (ctx) => {
    const { hash } = deviceRequest(ctx);
    return hash ? { name: `device:${hash}`, issued: async () => (await deviceService.ambulanceOf(svc, hash)) !== undefined } : undefined;
  });

  /** OsmAnd: 200 on success, 400 for a missing or unknown id (as Traccar answers) and for bad input. */
  const osmand = async (ctx: Context) => {
    const { hash, payload, json } = deviceRequest(ctx);
    if (!hash) throw badRequest(`${json ? 'device_id' : 'id'}: required`);
    const ambulanceId = await deviceService.ambulanceOf(svc, hash);
    if (ambulanceId === undefined) throw badRequest(UNKNOWN_DEVICE);
    const report = json ? validate(osmandJsonSchema, payload) : validate(osmandParamsSchema, payload);
    ctx.body = await store(svc, ambulanceId, report, 'osmand');
  };
  router.get('/api/devices/osmand', { summary: 'OsmAnd protocol (Traccar Client): a position in the query; the device id (`id`) is the credential', query: osmandParamsSchema, ok: { shape: 'PositionAck' } }, noStore, readOsmand, deviceLimit, osmand);
  router.post('/api/devices/osmand', { summary: 'OsmAnd protocol: a position in the query, a form body or JSON; the device id is the credential', query: osmandParamsSchema, body: { 'application/json': osmandJsonSchema, 'application/x-www-form-urlencoded': osmandParamsSchema }, ok: { shape: 'PositionAck' } }, noStore, readOsmand, deviceLimit, osmand);

  /** OwnTracks HTTP mode: 401 with a Basic challenge for missing or wrong credentials; `[]` (no messages for the app) once stored. */
  router.post('/api/devices/owntracks', { summary: "OwnTracks HTTP mode: the device id is HTTP Basic's password; answers [] once stored", body: z.union([owntracksLocationSchema, owntracksMessageSchema]), ok: { shape: '[]' } }, noStore, readOwntracks, deviceLimit, async (ctx) => {
    const { hash, payload } = deviceRequest(ctx);
    const ambulanceId = hash ? await deviceService.ambulanceOf(svc, hash) : undefined;
    if (ambulanceId === undefined) {
      ctx.set('WWW-Authenticate', OWNTRACKS_REALM);
      throw unauthorized(hash ? UNKNOWN_DEVICE : 'Authentication required: the device id is the password');
    }
    const { _type } = validate(owntracksMessageSchema, payload);
    if (_type === 'location') await store(svc, ambulanceId, validate(owntracksLocationSchema, payload), 'owntracks');
    ctx.body = [];
  });
};
