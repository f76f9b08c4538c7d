import { z } from 'zod';
import { text } from './common';
import { type Priority, TIMED_STEPS, UNIT_STEPS } from './callLife';

/** A priority 1–4, as a number or a digit (forms send strings). */
export const priority = () =>
  z.union([z.number(), z.string().trim().regex(/^\d$/).transform(Number)], { error: 'must be 1, 2, 3 or 4' })
    .pipe(z.number().int({ error: 'must be 1, 2, 3 or 4' }).min(1, { error: 'must be 1, 2, 3 or 4' }).max(4, { error: 'must be 1, 2, 3 or 4' }))
    .transform((v) => v as Priority);

const isoTime = () => z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time' });

/** POST /api/ambulances/{id}/unit-status and the driver socket's `unit.status`. */
export const unitStatusSchema = z.object({
  status: z.enum(UNIT_STEPS, { error: `must be one of ${UNIT_STEPS.join(', ')}` }),
  /** When the crew pressed the button (a press queued offline); the receive time if absent. */
  at: isoTime().optional(),
});

/** POST /api/cases/{id}/assignments/{assignmentId}/corrections: a dispatcher corrects one recorded time. */
export const timeCorrectionSchema = z.object({
  step: z.enum(TIMED_STEPS, { error: `must be one of ${TIMED_STEPS.join(', ')}` }),
  at: isoTime(),
  reason: text().trim().min(1, 'required: say why the time is corrected').max(500),
});
export type TimeCorrectionInput = z.infer<typeof timeCorrectionSchema>;

