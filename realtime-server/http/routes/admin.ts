import type { Context } from 'koa';
import { z } from 'zod';
import { geocodeSearchQuerySchema, latitude, longitude, outboxQuerySchema } from '../../contract';
import type { Asker } from '../../services/geocodeService';
import { outboxService } from '../../services/outboxService';
import { clientGoneSignal } from '../clientAbort';
import type { AppState } from '../middleware/auth';
import { validate } from '../validate';
import type { Mount } from './types';

// A blank parameter is missing, not 0 (Number('') is 0).
const coordinate = () => z.string({ error: 'required' }).trim().min(1, 'required').pipe(z.coerce.number());
const coords = z.object({ lat: coordinate().pipe(latitude()), lon: coordinate().pipe(longitude()) });

/** Turns at the geocoder are shared out per user; a request whose client left gives its place up. */
const asker = (ctx: Context): Asker => ({ user: String((ctx.state as AppState).principal!.user.id), signal: clientGoneSignal(ctx) });

export const mountOutboxAndGeocode: Mount = (router, { svc, geocoder }) => {
  // One page, newest first (?status=&limit=&cursor=); admins only (permissions.ts: outbox.read).
  router.get('/api/outbox', { summary: 'One page of the outbox (mails), newest first', query: outboxQuerySchema, ok: { shape: 'OutboxPageResponse' } }, async (ctx) => {
    ctx.body = await outboxService.page(svc, validate(outboxQuerySchema, ctx.query));
  });
  router.get('/api/geocode/reverse', { summary: "A point's place name", query: coords, ok: { shape: 'GeocodeResponse' } }, async (ctx) => {
    const { lat, lon } = validate(coords, ctx.query);
    ctx.body = await geocoder.reverse(lat, lon, asker(ctx));
  });
  router.get('/api/geocode/search', { summary: 'Places for an address, a plus code or "lat, lon" typed at intake', query: geocodeSearchQuerySchema, ok: { shape: 'GeocodeSearchResponse' } }, async (ctx) => {
    const { q } = validate(geocodeSearchQuerySchema, ctx.query);
    ctx.body = await geocoder.search(q, asker(ctx));
  });
};
