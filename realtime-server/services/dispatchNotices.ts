import type { Knex } from 'knex';
import type { CrewNotice } from '../contract';
import { caseEventRepository } from '../../db/repositories/caseEventRepository';
import { outboxRepository } from '../../db/repositories/outboxRepository';
import { trackTokenRepository } from '../../db/repositories/trackTokenRepository';
import type { AmbulanceRow, CaseRow } from '../../db/repositories/types';
import { type Actor, type ServiceContext, timelineActor } from './context';
import type { DomainEvent } from './events';
import { mailTemplates } from './mailTemplates';
import { hashToken, newToken } from './tokens';

type Record = (e: DomainEvent) => void;

/** A case's tracking links as issued: the patient's (watch only) and the driver's (watch and send positions), when one was minted. */
export interface TrackingLinks { trackLink: string; driverLink: string | null }


/**
 * Mints a viewer token and, with `driver`, a driver token for a case and its ambulance (stored
 * only as hashes) and answers their links. The case's earlier links are left as they are: Send
 * Tracker re-sends without cutting off a link already open, and a change of ambulance revoked the
 * old ones before. The one place tracking links are made (dispatch and Send Tracker).
 */
export async function issueTrackingLinks(
  trx: Knex.Transaction, publicUrl: string, c: Pick<CaseRow, 'id'>, ambulance: Pick<AmbulanceRow, 'id'>, opts: { driver: boolean },
): Promise<TrackingLinks> {
  const viewer = newToken();
  const driver = opts.driver ? newToken() : null;
  await trackTokenRepository.insert(trx, { token_hash: hashToken(viewer), kind: 'viewer', case_id: c.id, ambulance_id: ambulance.id });
  if (driver) await trackTokenRepository.insert(trx, { token_hash: hashToken(driver), kind: 'driver', case_id: c.id, ambulance_id: ambulance.id });
  return {
    trackLink: `${publicUrl}/track/${ambulance.id}?t=${viewer}`,
    driverLink: driver ? `${publicUrl}/driver/${ambulance.id}?t=${driver}` : null,
  };
}

/**
 * Queues the tracking mails of issued links — the patient's when `patient`, the driver's when the
 * ambulance has a driver e-mail and a driver link was minted — and the 'tracking' timeline entry
 * naming who was mailed (none when nobody was). Answers whether anything was queued.
 */
export async function mailTrackingLinks(
  trx: Knex.Transaction, record: Record, actor: Actor, c: CaseRow, ambulance: AmbulanceRow, links: TrackingLinks,
  opts: { patient: 'tracking' | 'told' | 'none' },
): Promise<{ driverMailed: boolean }> {
  if (opts.patient === 'tracking') await outboxRepository.insert(trx, mailTemplates.trackingPatient(c, ambulance.license_plate, links.trackLink));
  const driverMailed = Boolean(ambulance.driver_email && links.driverLink);
  if (driverMailed) {
    await outboxRepository.insert(trx, mailTemplates.trackingDriver(c, ambulance.license_plate, ambulance.driver_email!, links.driverLink!, links.trackLink));
  }
  const patientMailed = opts.patient !== 'none';
  if (patientMailed || driverMailed) {
    await caseEventRepository.insert(trx, {
      caseId: c.id, action: 'tracking', actor: timelineActor(actor),
      after: {
        ambulance_id: ambulance.id,
        ...(patientMailed ? { patient_email: c.patient_email } : {}),
        ...(driverMailed ? { driver_email: ambulance.driver_email } : {}),
      },
    });
  }
  if (opts.patient === 'tracking' || driverMailed) record({ type: 'mail.queued' });
  return { driverMailed };
}

/** What the dispatcher is told about the crew (CrewNotice.message). */
export const crewMessage = (ambulance: Pick<AmbulanceRow, 'license_plate' | 'driver_email'>) => (ambulance.driver_email
  ? `Driver link sent to ${ambulance.driver_email}`
  : `${ambulance.license_plate} has no driver e-mail: the crew was not sent the driver link. Tell them by radio, and add a driver e-mail in Manage Ambulances`);

/**
 * The crew hears at dispatch. Call it in the dispatch's own transaction wherever a case takes an
 * ambulance (a case created with one, an update that gives it one, a dispatch from the queue or a
 * reassignment), after the case row and its assignment are written, with the case row as it now
 * is and the ambulance taken:
 *
 * - issues the case's tracking links for that ambulance (a viewer's, and a driver's when the
 *   ambulance has a driver e-mail);
 * - mails the driver link to the ambulance's driver e-mail at once;
 * - `patient: 'tracking'` mails the patient which ambulance is coming with its tracking link;
 *   `'told'` when the caller puts the tracking link in its own mail to the patient (a case created
 *   with an ambulance: its one share-location mail); `'none'` mails the patient nothing;
 * - writes the 'tracking' timeline entry (who was mailed), and, for an ambulance without a driver
 *   e-mail, a 'crew.not_notified' entry saying so: the dispatch stands all the same.
 *
 * It runs only when an ambulance is taken, so a replayed request (which takes none) mails nothing.
 */
export async function notifyDispatch(
  trx: Knex.Transaction, record: Record, ctx: Pick<ServiceContext, 'config'>, actor: Actor, c: CaseRow, ambulance: AmbulanceRow,
  opts: { patient: 'tracking' | 'told' | 'none' },
): Promise<{ links: TrackingLinks; crew: CrewNotice }> {
  const links = await issueTrackingLinks(trx, ctx.config.publicUrl, c, ambulance, { driver: Boolean(ambulance.driver_email) });
  const { driverMailed } = await mailTrackingLinks(trx, record, actor, c, ambulance, links, opts);
  const message = crewMessage(ambulance);
  if (!driverMailed) {
    await caseEventRepository.insert(trx, {
      caseId: c.id, action: 'crew.not_notified', actor: { type: 'system' },
      after: { ambulance_id: ambulance.id, reason: message },
    });
  }
  return {
    links,
    crew: { ambulance_id: ambulance.id, license_plate: ambulance.license_plate, driver_email: ambulance.driver_email, mailed: driverMailed, message },
  };
}
