import type { NewMessage } from '../../db/repositories/outboxRepository';

interface CaseInfo { id: string; patient_name: string; patient_email: string; description: string }

/** Every line break a mail reader may honour (vertical tab and form feed included). */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/**
 * Text someone typed, as it goes into a plain-text mail: its first line where the template
 * puts it, each further line indented by two spaces. No line of it can then pass for a header
 * ("Bcc: …", "Subject: …") or for a line of the template itself.
 */
export const typed = (value: string) => value.split(LINE_BREAK).join('\n  ');

/** The live secrets a message's links carry: each link's `t=` token. */
const linkTokens = (links: string[]) => links.flatMap((l) => [...l.matchAll(/[?&]t=([^&#\s]+)/g)].map((m) => m[1]));

export const mailTemplates = {
  shareLocation(c: CaseInfo, link: string): NewMessage {
    return {
      kind: 'share-location',
      to: c.patient_email,
      caseId: c.id,
      subject: 'Emergency services: please share your location',
      links: [link],
      secrets: linkTokens([link]),
      text: [
        `Hello ${typed(c.patient_name)},`,
        '',
        'An ambulance has been dispatched for your emergency. Open this link on your phone and press',
        '"Share My Location" so the crew can find you:',
        '',
        link,
        '',
        `Case reference: ${c.id.slice(0, 8)}`,
        '— Lifeline Emergency Dispatch',
      ].join('\n'),
    };
  },

  trackingPatient(c: CaseInfo, plate: string, trackLink: string): NewMessage {
    return {
      kind: 'tracking-patient',
      to: c.patient_email,
      caseId: c.id,
      subject: `Your ambulance ${plate} is on its way`,
      links: [trackLink],
      secrets: linkTokens([trackLink]),
      text: [
        `Hello ${typed(c.patient_name)},`,
        '',
        `Ambulance ${typed(plate)} is on its way to you. Watch it live here:`,
        '',
        trackLink,
        '',
        `Case reference: ${c.id.slice(0, 8)}`,
        '— Lifeline Emergency Dispatch',
      ].join('\n'),
    };
  },

  trackingDriver(c: CaseInfo, plate: string, driverEmail: string, driverLink: string, trackLink: string): NewMessage {
    return {
      kind: 'tracking-driver',
      to: driverEmail,
      caseId: c.id,
      subject: `Dispatch: case ${c.id.slice(0, 8)} for ${plate}`,
      links: [driverLink, trackLink],
      secrets: linkTokens([driverLink, trackLink]),
      text: [
        `Ambulance ${typed(plate)} is assigned to case ${c.id}.`,
        '',
        `Patient: ${typed(c.patient_name)}`,
        `Patient email: ${typed(c.patient_email)}`,
        `Emergency: ${typed(c.description)}`,
        '',
        'Open this link on the ambulance device to share its position with dispatch:',
        driverLink,
        '',
        'Public tracking link (what the patient sees):',
        trackLink,
        '',
        '— Lifeline Emergency Dispatch',
      ].join('\n'),
    };
  },

  /** SIGNIN_CODE=email: the one-time code of a sign-in (never in the subject, which mail clients show everywhere). */
  signinCode(user: { name: string; email: string }, code: string, validMinutes: number): NewMessage {
    return {
      kind: 'signin-code',
      to: user.email,
      caseId: null,
      subject: 'Your Lifeline sign-in code',
      links: [],
      // The code stops working after validMinutes: an unsent mail loses it then (retention).
      secrets: [code],
      secretsExpireAt: new Date(Date.now() + validMinutes * 60_000).toISOString(),
      text: [
        `Hello ${typed(user.name)},`,
        '',
        'Your Lifeline sign-in code is:',
        '',
        `    ${code}`,
        '',
        `Enter it on the sign-in page within ${validMinutes} minutes; it works once.`,
        'If you did not just sign in, tell your administrator: someone knows your e-mail, name and phone number.',
        '',
        '— Lifeline Emergency Dispatch',
      ].join('\n'),
    };
  },
};
