import { z } from 'zod';
import { latitude, longitude, optionalText, singleLine, text } from './common';
import {
  ACTIVATIONS, DESTINATION_REASONS, HOSPITAL_CAPABILITIES, HOSPITAL_STATUSES, PATIENT_SEXES,
  type DestinationDto, type HospitalDto, type HospitalPageDto, type PrealertDto,
} from './hospitals';
import type { AssignmentDto } from './callLife';

const name = singleLine().trim().min(1, 'required').max(120);
const capabilities = z.array(z.enum(HOSPITAL_CAPABILITIES, { error: `each must be one of ${HOSPITAL_CAPABILITIES.join(', ')}` }))
  .max(HOSPITAL_CAPABILITIES.length)
  .transform((v) => HOSPITAL_CAPABILITIES.filter((c) => v.includes(c)));
const status = z.enum(HOSPITAL_STATUSES, { error: 'must be open or diversion' });
const reasonText = optionalText(200);

/** POST /api/hospitals (admins). */
export const hospitalCreateSchema = z.object({
  name,
  address: singleLine().trim().max(200).default(''),
  latitude: latitude(),
  longitude: longitude(),
  capabilities: capabilities.default([]),
  status: status.default('open'),
  status_reason: reasonText.optional(),
});
export type HospitalCreateInput = z.infer<typeof hospitalCreateSchema>;

/** PUT /api/hospitals/{id} (admins): any of the fields. */
export const hospitalUpdateSchema = z.object({
  name: name.optional(),
  address: singleLine().trim().max(200).optional(),
  latitude: latitude().optional(),
  longitude: longitude().optional(),
  capabilities: capabilities.optional(),
  status: status.optional(),
  status_reason: reasonText.optional(),
}).refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'nothing to update' })
  .refine((v) => (v.latitude === undefined) === (v.longitude === undefined), { message: 'latitude and longitude go together', path: ['latitude'] });
export type HospitalUpdateInput = z.infer<typeof hospitalUpdateSchema>;

/** PUT /api/hospital/{id}/status?t=…: the hospital sets its own diversion status, with a reason for a diversion. */
export const hospitalStatusSchema = z.object({ status, status_reason: reasonText.optional() })
  .refine((v) => v.status !== 'diversion' || !!v.status_reason, { message: 'required: say why the hospital is on diversion', path: ['status_reason'] });
export type HospitalStatusInput = z.infer<typeof hospitalStatusSchema>;

/** POST /api/cases/{id}/assignments/{assignmentId}/destination (staff or the unit's driver link). */
export const destinationSchema = z.object({
  hospital_id: z.number({ error: 'must be a hospital id' }).int().positive(),
  reason: z.enum(DESTINATION_REASONS, { error: `must be one of ${DESTINATION_REASONS.join(', ')}` }),
});
export type DestinationInput = z.infer<typeof destinationSchema>;
export interface DestinationResponse { assignment: AssignmentDto; destination: DestinationDto }

/** GET /api/hospitals/suggestions?latitude=&longitude=&needs=stroke,pci */
export const hospitalSuggestionsQuery = z.object({
  latitude: z.coerce.number().pipe(latitude()),
  longitude: z.coerce.number().pipe(longitude()),
  needs: z.string().optional().transform((v, ctx) => {
    const list = (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const bad = list.filter((s) => !(HOSPITAL_CAPABILITIES as readonly string[]).includes(s));
    if (bad.length) ctx.addIssue({ code: 'custom', message: `unknown need ${bad[0]}: one of ${HOSPITAL_CAPABILITIES.join(', ')}` });
    return HOSPITAL_CAPABILITIES.filter((c) => list.includes(c));
  }),
});

const sign = (min: number, max: number) => z.number({ error: 'must be a number' }).finite().min(min).max(max).nullish().transform((v) => v ?? null);
const atmistText = (max: number) => text().trim().max(max).default('');

/** POST /api/cases/{id}/assignments/{assignmentId}/prealert: an ATMIST pre-alert (staff or the unit's driver link). */
export const prealertSchema = z.object({
  age: z.number({ error: 'must be a number of years' }).int().min(0).max(130).nullish().transform((v) => v ?? null),
  sex: z.enum(PATIENT_SEXES, { error: 'must be female, male or unknown' }).default('unknown'),
  time_of_incident: z.iso.datetime({ offset: true, error: 'must be an ISO date-time' }).nullish().transform((v) => (v ? new Date(v).toISOString() : null)),
  mechanism: atmistText(500),
  injuries: atmistText(500),
  signs: z.object({
    hr: sign(0, 300), sbp: sign(0, 300), rr: sign(0, 80), spo2: sign(0, 100), gcs: sign(3, 15), temp: sign(20, 45),
  }).default({ hr: null, sbp: null, rr: null, spo2: null, gcs: null, temp: null }),
  treatment: atmistText(500),
  requirements: atmistText(500),
  activation: z.enum(ACTIVATIONS, { error: `must be one of ${ACTIVATIONS.join(', ')}` }).default('none'),
});
export type PrealertInput = z.infer<typeof prealertSchema>;
/** What a client sends (every field but the ATMIST texts may be left out). */
export type PrealertBody = z.input<typeof prealertSchema>;
export interface PrealertResponse { prealert: PrealertDto }

export interface HospitalsResponse { hospitals: HospitalDto[] }
export interface HospitalResponse { hospital: HospitalDto }
export interface HospitalLinkResponse { link: string }
export type HospitalPageResponse = HospitalPageDto;
