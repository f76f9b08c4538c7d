import { z } from 'zod';
import { email, intId } from './common';

/** Tracking payload of SPEC.md §3. The server mails the addresses it holds for the case and ambulance. */
export const trackingInitiateSchema = z.object({
  caseId: z.uuid({ error: 'must be a case id' }),
  ambulanceId: intId(),
  patientEmail: z.union([z.literal(''), email()]).optional(),
  driverEmail: z.union([z.literal(''), email()]).optional(),
});
export type TrackingInitiateInput = z.infer<typeof trackingInitiateSchema>;

export interface TrackingInitiateResponse {
  success: true;
  message: string;
  caseId: string;
  ambulanceId: number;
  patientEmail: string;
  driverEmail: string;
}

/** GET /api/track/{ambulanceId}?t=TOKEN */
export interface TrackResponse {
  ambulanceId: number;
  license_plate: string;
  latitude: number | null;
  longitude: number | null;
  updated_at: string | null;
}

export interface GeocodeResponse { displayName: string; cached: boolean }

export interface OutboxMessageDto {
  id: number;
  kind: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
  status: 'queued' | 'sending' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  case_id: string | null;
  created_at: string;
  sent_at: string | null;
}
