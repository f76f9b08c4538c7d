import { describe, expect, it } from 'vitest';
import { useTestServer } from '../testing/testServer';

const s = useTestServer();

describe('smoke', () => {
  it('answers health and lets the demo operator dispatch', async () => {
    expect((await s.api('GET', '/api/health')).body).toEqual({ status: 'ok' });
    const token = await s.signIn('operator');
    const res = await s.api('POST', '/live-location', { token, body: { to: 'p@example.com', status: 'active', patientName: 'P', description: 'Stroke', license_plate: 3 } });
    expect(res.status).toBe(201);
    expect(res.body.caseId).toMatch(/^[0-9a-f-]{36}$/);
  });
  it('turns malformed JSON into a 400 with a clear error', async () => {
    const res = await s.api('POST', '/api/auth/signin', { raw: '{bad' });
    expect(res).toMatchObject({ status: 400, body: { error: 'Request body is not valid JSON' } });
  });
});
