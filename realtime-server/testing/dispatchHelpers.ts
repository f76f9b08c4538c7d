import { createHash } from 'node:crypto';
import type { ApiResult, TestServer } from './testServer';
import { waitFor } from './wait';

/** Helpers shared by the dispatch, case, ambulance, public and outbox tests. */

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const PUBLIC_URL = 'http://lifeline.test';

/** The demo fleet as seeded (DESIGN.md §5): ambulance n has plate `TS09 EA 100n` and driver `drivern@lifeline.test`. */
export const plateOf = (ambulanceId: number) => `TS09 EA 100${ambulanceId}`;
export const driverOf = (ambulanceId: number) => `driver${ambulanceId}@lifeline.test`;

/** The case-creation payload of SPEC.md §3, the ambulance id in `license_plate`. */
export const casePayload = (ambulanceId: number | undefined, extra: Record<string, unknown> = {}) => ({
  to: 'patient@example.com',
  status: 'active',
  patientName: 'Pat Doe',
  description: 'Heart Attack',
  caseType: 'Hospitalization',
  ...(ambulanceId === undefined ? {} : { license_plate: ambulanceId }),
  ...extra,
});

/** POST /live-location (the e-mail/location service). */
export async function dispatch(s: TestServer, token: string, ambulanceId: number | undefined, extra: Record<string, unknown> = {}) {
  return rememberLocationLink(await s.api('POST', '/live-location', { token, body: casePayload(ambulanceId, extra) }));
}

/** Location links answered by the creates this test file made, by case id (their token is answered only there). */
const locationLinks = new Map<string, string>();

/** Keeps the patient's location link of a create's answer (POST /live-location or /api/cases); answers the result as it is. */
export function rememberLocationLink<T extends ApiResult>(res: T): T {
  const b = res.body as { caseId?: string; case?: { id?: string }; locationLink?: string } | undefined;
  const id = b?.caseId ?? b?.case?.id;
  if (id && b?.locationLink) locationLinks.set(id, b.locationLink);
  return res;
}

/**
 * The token of a case's patient location link: from its create's answer when this file made it
 * through a helper, else from the patient's e-mail in the outbox.
 */
export async function locationToken(s: TestServer, caseId: string): Promise<string> {
  let link = locationLinks.get(caseId);
  if (!link) {
    const mail = await s.ctx.db('outbox').where({ case_id: caseId, kind: 'share-location' }).first();
    link = mail ? (JSON.parse(mail.links) as string[])[0] : undefined;
  }
  const token = link ? new URL(link).searchParams.get('t') : null;
  if (!token) throw new Error(`no location link known for case ${caseId}`);
  return token;
}

/** The patient's share call of a case, with its link's own token: `/api/location/{caseId}?t=TOKEN`. */
export const locationSharePath = async (s: TestServer, caseId: string) => `/api/location/${caseId}?t=${await locationToken(s, caseId)}`;

/** POST /api/location/{caseId}?t=TOKEN as the patient's page sends it. */
export const shareLocation = async (s: TestServer, caseId: string, body: unknown) =>
  s.api('POST', await locationSharePath(s, caseId), { body });

/** Dispatches and returns the new case id; throws unless the answer is 201. */
export async function dispatchCase(s: TestServer, token: string, ambulanceId: number, extra: Record<string, unknown> = {}): Promise<string> {
  return expectStatus(await dispatch(s, token, ambulanceId, extra), 201, 'dispatch').body.caseId;
}

/** PUT /api/cases/{id} */
export const updateCase = (s: TestServer, token: string, caseId: string, body: Record<string, unknown>) =>
  s.api('PUT', `/api/cases/${caseId}`, { token, body });

/** POST /api/tracking/initiate with the tracking payload of SPEC.md §3. */
export const initiateTracking = (s: TestServer, token: string, caseId: string, ambulanceId: number) =>
  s.api('POST', '/api/tracking/initiate', {
    token,
    body: { caseId, ambulanceId, patientEmail: 'patient@example.com', driverEmail: driverOf(ambulanceId) },
  });

export function expectStatus<T>(res: ApiResult<T>, status: number, what: string): ApiResult<T> {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

/** Rows of a table, optionally filtered. */
export async function rowCount(s: TestServer, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const r = await s.ctx.db(table).where(where).count({ n: '*' }).first();
  return Number(r?.n ?? 0);
}

/** Row counts of every table a dispatch writes, to compare before and after a refusal. */
export async function writeCounts(s: TestServer) {
  const tables = ['cases', 'case_events', 'assignments', 'outbox', 'track_tokens', 'ambulance_positions'] as const;
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = await rowCount(s, t);
  return out;
}

export const ambulanceRow = (s: TestServer, id: number) => s.ctx.db('ambulances').where({ id }).first();
export const caseRow = (s: TestServer, id: string) => s.ctx.db('cases').where({ id }).first();
export const caseEvents = (s: TestServer, caseId: string) => s.ctx.db('case_events').where({ case_id: caseId }).orderBy('id');
export const outboxFor = (s: TestServer, caseId: string) => s.ctx.db('outbox').where({ case_id: caseId }).orderBy('id');

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** The `t` token of the first `${PUBLIC_URL}/${kind}/${ambulanceId}?t=…` link in a text. */
export function tokenInLink(text: string, kind: 'track' | 'driver', ambulanceId: number): string | undefined {
  const m = new RegExp(`${PUBLIC_URL.replace(/\./g, '\\.')}/${kind}/${ambulanceId}\\?t=([A-Za-z0-9_-]+)`).exec(text);
  return m?.[1];
}

/**
 * What a test reads the mail of a server from: its outbox rows (a queued message keeps its
 * links), or with SMTP_URL what the SMTP listener received (a sent row keeps no secret).
 */
export interface Mailbox { received: { to: string[]; text: string }[] }

/**
 * Initiates tracking for a case and returns the viewer and driver tokens read from the
 * e-mails it queued (or, given the server's SMTP listener, from the e-mails it sent).
 */
export async function trackingTokens(s: TestServer, token: string, caseId: string, ambulanceId: number, mailbox?: Mailbox) {
  const seen = mailbox?.received.length ?? 0;
  expectStatus(await initiateTracking(s, token, caseId, ambulanceId), 200, 'tracking');
  const texts = mailbox
    ? (await waitFor(() => {
      const mine = mailbox.received.slice(seen).filter((m) => m.text.includes(caseId.slice(0, 8)) && m.text.includes(`/track/${ambulanceId}?t=`));
      return mine.some((m) => m.text.includes(`/driver/${ambulanceId}?t=`)) && mine.some((m) => !m.text.includes('/driver/')) ? mine : undefined;
    }, 'the tracking e-mails')).map((m) => m.text)
    : (await s.ctx.db('outbox').where({ case_id: caseId }).whereIn('kind', ['tracking-patient', 'tracking-driver']).orderBy('id', 'desc')).map((m) => m.body_text as string);
  const viewer = texts.map((t) => !t.includes('/driver/') && tokenInLink(t, 'track', ambulanceId)).find(Boolean);
  const driverToken = texts.map((t) => tokenInLink(t, 'driver', ambulanceId)).find(Boolean);
  if (!viewer || !driverToken) throw new Error('tracking e-mails without their links');
  return { viewer, driver: driverToken };
}

/** The id of a demo staff account. */
export const userId = async (s: TestServer, email: string): Promise<number> =>
  (await s.ctx.db('users').where({ email }).first()).id;
