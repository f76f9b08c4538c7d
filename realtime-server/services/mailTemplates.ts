import type { NewMessage } from '../../db/repositories/outboxRepository';

interface CaseInfo {
  id: string; patient_name: string; patient_email: string; description: string;
  priority?: number | null; intake_address?: string | null;
  /** When the patient last shared a position (null: never). */
  location_at?: string | null;
}

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
  /**
   * The patient's first mail, with their location link. A waiting call's (no ambulance yet) says
   * help is being arranged and asks for the location; a call dispatched at once names the
   * ambulance and, when its tracking link was issued, lets the patient watch it come.
   */
  shareLocation(c: CaseInfo, link: string, dispatched: { plate: string; trackLink: string | null } | null): NewMessage {
    const links = dispatched?.trackLink ? [link, dispatched.trackLink] : [link];
    const body = dispatched
      ? [
        `Ambulance ${typed(dispatched.plate)} has been dispatched for your emergency. Open this link on your phone and press`,
        '"Share My Location" so the crew can find you:',
        '',
        link,
        ...(dispatched.trackLink ? ['', 'Watch the ambulance on its way to you here:', '', dispatched.trackLink] : []),
      ]
      : [
        'Your call has reached emergency dispatch and help is being arranged: an ambulance will be sent',
        'to you as soon as one is free.',
        '',
        'Please open this link on your phone now and press "Share My Location", so that we know exactly',
        'where you are and can send the nearest ambulance:',
        '',
        link,
        '',
        'Keep the page open while you wait: it keeps your location up to date. We will e-mail you again',
        'when an ambulance is on its way. If things get worse, call your local emergency number again.',
      ];
    return {
      kind: 'share-location',
      to: c.patient_email,
      caseId: c.id,
      subject: 'Emergency services: please share your location',
      links,
      secrets: linkTokens(links),
      text: [
        `Hello ${typed(c.patient_name)},`,
        '',
        ...body,
        '',
        `Case reference: ${c.id.slice(0, 8)}`,
        '— Lifeline Emergency Dispatch',
      ].join('\n'),
    };
  },

  /**
   * The patient's tracking mail: which ambulance is coming, and its live link (at dispatch, and
   * again with new links on Send Tracker). While the centre has no position shared from the
   * patient, it asks for one.
   */
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
        ...(c.location_at ? [] : [
          '',
          'We do not have your location yet: open the location link you were sent and press',
          '"Share My Location" so the crew can find you.',
        ]),
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
        ...(c.priority != null ? [`Priority: P${c.priority}`] : []),
        `Patient: ${typed(c.patient_name)}`,
        `Patient email: ${typed(c.patient_email)}`,
        `Emergency: ${typed(c.description)}`,
        ...(c.intake_address ? [`Location: ${typed(c.intake_address)}`] : []),
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
