import { describe, expect, it } from 'vitest';
import { dispatchCase, locationToken, trackingTokens } from '../testing/dispatchHelpers';
import { signedInStaff, useTestServer } from '../testing/testServer';

/**
 * Issue 26 item 5: a patient behind a carrier's NAT shares a public address with strangers. A
 * wrong token (someone else's typo, a scanner) counts in its own budget per client key and never
 * spends the right link's: neither the link × client count nor the client's count. Every public
 * link kind: the patient's location link, the tracking link, the driver link, a device id.
 */
const PER_LINK = 40;
const PER_CLIENT = 50;
const s = useTestServer({
  env: { LINK_LIMIT_PER_MIN: String(PER_LINK), LINK_LIMIT_PER_CLIENT: String(PER_CLIENT), TRUSTED_PROXY: '127.0.0.1,::1', SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000' },
});
const staff = signedInStaff(s);

const from = (client: string) => ({ 'x-forwarded-for': client });
const WRONG = 130;

/** `WRONG` calls with wrong secrets from `client`: how many were refused 429 (the rest answered as a wrong link is). */
async function wrongFlood(client: string, call: (i: number) => Promise<{ status: number }>, wrongStatus: number) {
  const statuses: number[] = [];
  for (let i = 0; i < WRONG; i++) statuses.push((await call(i)).status);
  expect(statuses.filter((st) => st !== 429 && st !== wrongStatus)).toEqual([]);
  return statuses.filter((st) => st === 429).length;
}

const wrongToken = (i: number) => `wrong-${i % 2 ? 'same' : i}-${'x'.repeat(30)}`;

describe('a wrong link counts apart from the right one on the same address', () => {
  it('the patient\'s location link: 130 wrong tokens from the address, then the right token from it answers 200; the wrong ones were limited', async () => {
    const caseId = await dispatchCase(s, staff.operator, 1);
    const token = await locationToken(s, caseId);
    const client = '198.51.100.11';
    const refused = await wrongFlood(client, (i) => s.api('GET', `/api/location/${caseId}?t=${wrongToken(i)}`, { headers: from(client) }), 404);
    expect(refused).toBeGreaterThan(0);
    const right = await s.api('GET', `/api/location/${caseId}?t=${token}`, { headers: from(client) });
    expect({ status: right.status, body: right.body }).toEqual({ status: 200, body: { active: true, waiting: false } });
    const share = await s.api('POST', `/api/location/${caseId}?t=${token}`, { headers: from(client), body: { latitude: 17.4, longitude: 78.4, accuracy: 10 } });
    expect(share.status).toBe(200);
  });

  it('the tracking link: wrong tokens do not spend the client\'s count of the right one', async () => {
    const caseId = await dispatchCase(s, staff.operator, 2);
    const { viewer } = await trackingTokens(s, staff.operator, caseId, 2);
    const client = '198.51.100.12';
    const refused = await wrongFlood(client, (i) => s.api('GET', `/api/track/2?t=${wrongToken(i)}`, { headers: from(client) }), 404);
    expect(refused).toBeGreaterThan(0);
    expect((await s.api('GET', `/api/track/2?t=${viewer}`, { headers: from(client) })).status).toBe(200);
  });

  it('the driver link: wrong tokens do not spend the client\'s count of the right one', async () => {
    const caseId = await dispatchCase(s, staff.operator, 3);
    const { driver } = await trackingTokens(s, staff.operator, caseId, 3);
    const client = '198.51.100.13';
    const refused = await wrongFlood(client, (i) => s.api('POST', `/api/ambulances/3/position?t=${wrongToken(i)}`, { headers: from(client), body: { latitude: 17.4, longitude: 78.4 } }), 403);
    expect(refused).toBeGreaterThan(0);
    expect((await s.api('POST', `/api/ambulances/3/position?t=${driver}`, { headers: from(client), body: { latitude: 17.4, longitude: 78.4 } })).status).toBe(200);
  });

  it('a device id: wrong ids do not spend the client\'s count of the right one', async () => {
    const device = (await s.api('POST', '/api/ambulances/4/device', { token: staff.admin })).body.device_id as string;
    const client = '198.51.100.14';
    const osmand = (id: string) => s.api('GET', `/api/devices/osmand?id=${id}&lat=17.4&lon=78.4`, { headers: from(client) });
    const refused = await wrongFlood(client, (i) => osmand(`wrongdevice${i % 2 ? 'same' : i}`), 400);
    expect(refused).toBeGreaterThan(0);
    expect((await osmand(device)).status).toBe(200);
  });

  it('the right link keeps its own limits: over LINK_LIMIT_PER_MIN a minute it is refused', async () => {
    const caseId = await dispatchCase(s, staff.operator, 5);
    const token = await locationToken(s, caseId);
    const client = '198.51.100.15';
    const statuses: number[] = [];
    for (let i = 0; i <= PER_LINK; i++) statuses.push((await s.api('GET', `/api/location/${caseId}?t=${token}`, { headers: from(client) })).status);
    expect(statuses.slice(0, PER_LINK).every((st) => st === 200)).toBe(true);
    expect(statuses[PER_LINK]).toBe(429);
  });
});
