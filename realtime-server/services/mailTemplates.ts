import type { NewMessage } from '../../db/repositories/outboxRepository';

interface CaseInfo { id: string; patient_name: string; patient_email: string; description: string }

export const mailTemplates = {
  shareLocation(c: CaseInfo, link: string): NewMessage {
    return {
      kind: 'share-location',
      to: c.patient_email,
      caseId: c.id,
      subject: 'Emergency services: please share your location',
      links: [link],
      text: [
        `Hello ${c.patient_name},`,
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
      text: [
        `Hello ${c.patient_name},`,
        '',
        `Ambulance ${plate} is on its way to you. Watch it live here:`,
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
      text: [
        `Ambulance ${plate} is assigned to case ${c.id}.`,
        '',
        `Patient: ${c.patient_name}`,
        `Patient email: ${c.patient_email}`,
        `Emergency: ${c.description}`,
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
      text: [
        `Hello ${user.name},`,
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
