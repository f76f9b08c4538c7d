import { z } from 'zod';
import { latitude, longitude } from '../../contract';
import { outboxRepository } from '../../../db/repositories/outboxRepository';
import { presentOutbox } from '../../presenters/presentOutbox';
import { authorize } from '../middleware/auth';
import { validate } from '../validate';
import type { Mount } from './types';

const coords = z.object({ lat: z.coerce.number().pipe(latitude()), lon: z.coerce.number().pipe(longitude()) });

export const mountOutboxAndGeocode: Mount = (router, { svc, geocoder }) => {
  router.get('/api/outbox', authorize('outbox.read'), async (ctx) => {
    ctx.body = { messages: (await outboxRepository.list(svc.db)).map(presentOutbox) };
  });
  router.get('/api/geocode/reverse', authorize('geocode.read'), async (ctx) => {
    const { lat, lon } = validate(coords, ctx.query);
    ctx.body = await geocoder.reverse(lat, lon);
  });
};
