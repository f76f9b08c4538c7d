import { z } from 'zod';
import { geocodeSearchQuerySchema, latitude, longitude, outboxQuerySchema } from '../../contract';
import { outboxService } from '../../services/outboxService';
import { validate } from '../validate';
import type { Mount } from './types';

// A blank parameter is missing, not 0 (Number('') is 0).
const coordinate = () => z.string({ error: 'required' }).trim().min(1, 'required').pipe(z.coerce.number());
const coords = z.object({ lat: coordinate().pipe(latitude()), lon: coordinate().pipe(longitude()) });

export const mountOutboxAndGeocode: Mount = (router, { svc, geocoder }) => {
  // One page, newest first (?status=&limit=&cursor=); admins only (permissions.ts: outbox.read).
  router.get('/api/outbox', async (ctx) => {
    ctx.body = await outboxService.page(svc, validate(outboxQuerySchema, ctx.query));
  });
  router.get('/api/geocode/reverse', async (ctx) => {
    const { lat, lon } = validate(coords, ctx.query);
    ctx.body = await geocoder.reverse(lat, lon);
  });
  router.get('/api/geocode/search', async (ctx) => {
    const { q } = validate(geocodeSearchQuerySchema, ctx.query);
    ctx.body = await geocoder.search(q);
  });
};
