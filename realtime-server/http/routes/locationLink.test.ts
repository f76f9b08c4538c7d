import { beforeAll, describe, expect, it } from 'vitest';
import { caseRow, dispatchCase, expectStatus, locationSharePath, locationToken, rowCount, shareLocation, updateCase } from '../../testing/dispatchHelpers';
import { signedInStaff, useTestServer } from '../../testing/testServer';

const CASE_NOT_FOUND = { error: 'Case not found' };
const CASE_OVER = { error: 'This case is no longer active' };

/**
 * GET /api/location/{caseId}?t=: the patient's page asks at load whether its link can still share,
 * so a closed or unknown case says so before the patient presses anything.
 */
describe('GET /api/location/{caseId}?t= (the location link\'s state, no sign-in)', () => {
  const s = useTestServer({ env: { LINK_LIMIT_PER_MIN: '100000' } });
  const staff = signedInStaff(s);

  const state = (caseId: string, t?: string) =>
    s.api('GET', `/api/location/${caseId}${t === undefined ? '' : `?t=${encodeURIComponent(t)}`}`);

  it("answers only that the link is usable, not cached, and changes nothing", async () => {
    const caseId = await dispatchCase(s, staff.operator, 1);
    const before = await caseRow(s, caseId);
    const events = await rowCount(s, 'case_events');
    const res = await s.api('GET', await locationSharePath(s, caseId));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ active: true, waiting: false });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await caseRow(s, caseId)).toEqual(before);
    expect(await rowCount(s, 'case_events')).toBe(events);
  });

  it("answers the POST's 404 body for a wrong, missing or other case's token, an unknown case and a non-UUID id", async () => {
    const caseId = await dispatchCase(s, staff.operator, 2);
    const other = await dispatchCase(s, staff.operator, 3);
    const token = await locationToken(s, caseId);
    const answers = [
      await state(caseId, 'x'.repeat(43)),
      await state(caseId, token.slice(0, -1)),
      await state(caseId, await locationToken(s, other)),
      await state(caseId),
      await state(caseId, ''),
      await state('3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a', token),
      await state('not-a-uuid', token),
    ];
    for (const res of answers) expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: CASE_NOT_FOUND });
  });

  it('answers 410 once the case is closed or resolved, like the share; 404 once deleted', async () => {
    for (const [ambulance, status] of [[4, 'closed'], [5, 'resolved']] as const) {
      const caseId = await dispatchCase(s, staff.operator, ambulance);
      expectStatus(await updateCase(s, staff.operator, caseId, { status }), 200, status);
      const token = await locationToken(s, caseId);
      expect(await state(caseId, token)).toMatchObject({ status: 410, body: CASE_OVER });
      expect(await shareLocation(s, caseId, { latitude: 1, longitude: 2 })).toMatchObject({ status: 410, body: CASE_OVER });
      // A wrong token on a closed case learns nothing more than on any other case.
      expect(await state(caseId, 'x'.repeat(43))).toMatchObject({ status: 404, body: CASE_NOT_FOUND });
    }
    const deleted = await dispatchCase(s, staff.operator, 7);
    const token = await locationToken(s, deleted);
    expectStatus(await s.api('DELETE', `/api/cases/${deleted}`, { token: staff.admin }), 200, 'delete');
    expect(await state(deleted, token)).toMatchObject({ status: 404, body: CASE_NOT_FOUND });
  });

  it('a call put back in the queue (pending) still shares, and says it waits; once it ends, 410', async () => {
    const caseId = await dispatchCase(s, staff.operator, 6);
    expectStatus(await updateCase(s, staff.operator, caseId, { status: 'pending' }), 200, 'pending');
    const token = await locationToken(s, caseId);
    expect(await state(caseId, token)).toMatchObject({ status: 200, body: { active: true, waiting: true } });
    expect(await shareLocation(s, caseId, { latitude: 17.4, longitude: 78.5 })).toMatchObject({ status: 200, body: { latitude: 17.4, longitude: 78.5 } });
    expectStatus(await updateCase(s, staff.operator, caseId, { status: 'closed' }), 200, 'close');
    expect(await state(caseId, token)).toMatchObject({ status: 410, body: CASE_OVER });
    expect(await shareLocation(s, caseId, { latitude: 1, longitude: 2 })).toMatchObject({ status: 410, body: CASE_OVER });
  });
});

describe('GET /api/location/{caseId}?t= under the link limits (LINK_LIMIT_PER_MIN=4)', () => {
  const s = useTestServer({ env: { LINK_LIMIT_PER_MIN: '4' } });
  let operator: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
  });

  it("is counted with the link's shares (LINK_LIMIT_PER_MIN=4): the 5th call in a minute is refused, another link still answers", async () => {
    const caseId = await dispatchCase(s, operator, 8);
    const other = await dispatchCase(s, operator, 4);
    const path = await locationSharePath(s, caseId);
    expect((await s.api('GET', path)).status).toBe(200);
    expect((await shareLocation(s, caseId, { latitude: 1, longitude: 2 })).status).toBe(200);
    expect((await s.api('GET', path)).status).toBe(200);
    expect((await shareLocation(s, caseId, { latitude: 1, longitude: 2 })).status).toBe(200);
    const refusedGet = await s.api('GET', path);
    expect(refusedGet.status).toBe(429);
    expect(refusedGet.body.error).toMatch(/^Too many requests\. Try again in \d+ seconds?\.$/);
    expect(Number(refusedGet.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await shareLocation(s, caseId, { latitude: 1, longitude: 2 })).status).toBe(429);
    expect((await s.api('GET', await locationSharePath(s, other))).status).toBe(200);
  });
});
