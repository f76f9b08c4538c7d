import { z } from 'zod';

export const email = () => z.string().trim().toLowerCase().pipe(z.email({ error: 'Invalid email address' }));

/** A positive integer id, accepted as a number or a numeric string (forms send strings). */
export const intId = () =>
  z.union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)], { error: 'must be a whole number' })
    .pipe(z.number().int().positive({ error: 'must be a positive whole number' }));

export const latitude = () => z.number().finite().min(-90).max(90);
export const longitude = () => z.number().finite().min(-180).max(180);

export const optionalText = (max: number) =>
  z.string().trim().max(max).nullish().transform((v) => (v ? v : null));

/** Error body of every failed call. */
export interface ErrorBody { error: string }
