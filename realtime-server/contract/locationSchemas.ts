import { z } from 'zod';
import { priority } from './callLifeSchemas';
import { latitude, longitude, singleLine } from './common';
import { INTAKE_SOURCES } from './location';

/** The intake location a form sends: what the operator saw understood (coordinates, its place text, how). */
export const intakeLocationSchema = z.object({
  latitude: latitude(),
  longitude: longitude(),
  address: singleLine().trim().min(1, 'required').max(500),
  source: z.enum(INTAKE_SOURCES, { error: `must be one of ${INTAKE_SOURCES.join(', ')}` }),
});
export type IntakeLocationInput = z.infer<typeof intakeLocationSchema>;

/** GET /api/geocode/search?q=… */
export const geocodeSearchQuerySchema = z.object({
  q: singleLine().trim().min(1, 'required').max(300),
});

const queryNumber = (schema: z.ZodNumber) => z.string().trim().regex(/^-?\d+(\.\d+)?$/, 'must be a number in decimal degrees').transform(Number).pipe(schema);

/** GET /api/dispatch/suggestions?latitude=…&longitude=… */
export const suggestionsQuerySchema = z.object({
  latitude: queryNumber(latitude()),
  longitude: queryNumber(longitude()),
  /** The call's priority: units meeting its need (PRIORITY_NEEDS) rank first, and the answer's `plan` is made for it. */
  priority: priority().optional(),
});
