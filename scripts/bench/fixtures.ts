import type { OutboxPageResponse } from '../../realtime-server/contract';
import { expectOk, request } from './http';

/** One ambulance of the bench fleet: on an active case, with its patient's and driver's link tokens. */
export interface BenchAmbulance { id: number; caseId: string; viewerToken: string; driverToken: string }

export interface Fixtures { operatorToken: string; adminToken: string; fleet: BenchAmbulance[] }

const signin = async (url: string, email: string, username: string, phone: string) =>
  (await expectOk(request<{ token: string }>(url, 'POST', '/api/auth/signin', { body: { email, username, phone } }), `sign in ${email}`)).token;

/** Runs `fn` over `items`, `width` at a time. */
export async function pool<T, R>(items: T[], width: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  }));
  return out;
}

/**
 * The bench fleet through the public API, as staff would build it: `count` ambulances with
 * driver e-mails (the demo seed's eight, then new ones), each dispatched on a case and sent
 * tracking links; the tokens are read from the admin outbox like the recipients would.
 */
export async function buildFleet(url: string, count: number): Promise<Fixtures> {
  const adminToken = await signin(url, 'admin@lifeline.test', 'Admin', '5550100');
  const operatorToken = await signin(url, 'operator@lifeline.test', 'Operator', '5550101');
  const existing = (await expectOk(request<{ ambulances: { id: number; status: string; driver_email?: string | null }[] }>(url, 'GET', '/api/ambulances', { token: operatorToken }), 'ambulances')).ambulances;
  const ids = existing.filter((a) => a.status === 'available').map((a) => a.id).slice(0, count);
  const missing = Array.from({ length: count - ids.length }, (_, i) => i);
  const created = await pool(missing, 8, async (i) => {
    const body = { license_plate: `BENCH ${process.pid % 10000}-${i}`, email: `bench-driver${i}@lifeline.test`, latitude: 17.385 + i * 1e-4, longitude: 78.4867 };
    const r = await request<{ ambulance: { id: number } }>(url, 'POST', '/api/ambulances', { token: adminToken, body });
    if (r.status !== 200 && r.status !== 201) throw new Error(`create ambulance: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.ambulance.id;
  });
  ids.push(...created);
  const cases = await pool(ids, 8, async (id) => {
    const body = { to: `patient${id}@example.com`, status: 'active', patientName: `Bench Patient ${id}`, description: 'Heart Attack', caseType: 'Hospitalization', license_plate: id };
    const caseId = (await expectOk(request<{ caseId: string }>(url, 'POST', '/live-location', { token: operatorToken, body }), 'dispatch', 201)).caseId;
    await expectOk(request(url, 'POST', '/api/tracking/initiate', { token: operatorToken, body: { caseId, ambulanceId: id } }), 'tracking');
    return caseId;
  });
  // The outbox answers a page at a time (newest first): read every page, the fleet's mail is all there is.
  const messages: { kind: string; case_id: string | null; text: string }[] = [];
  for (let cursor: string | null = ''; cursor !== null;) {
    const page: OutboxPageResponse = await expectOk(request<OutboxPageResponse>(url, 'GET', `/api/outbox?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: adminToken }), 'outbox');
    messages.push(...page.messages);
    // A server from before the outbox was paged (a --compare base) answers every message and no cursor: the end.
    cursor = page.next_cursor ?? null;
  }
  const tokenIn = (caseId: string, kind: 'track' | 'driver', id: number) => {
    for (const m of messages) {
      if (m.case_id !== caseId) continue;
      const t = new RegExp(`/${kind}/${id}\\?t=([A-Za-z0-9_-]+)`).exec(m.text)?.[1];
      if (t) return t;
    }
    throw new Error(`no ${kind} link for ambulance ${id} in the outbox`);
  };
  const fleet = ids.map((id, i) => ({ id, caseId: cases[i], viewerToken: tokenIn(cases[i], 'track', id), driverToken: tokenIn(cases[i], 'driver', id) }));
  return { operatorToken, adminToken, fleet };
}
