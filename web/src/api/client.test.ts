import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../testing/memoryStorage';


async function setup(respond: () => Response) {
  vi.stubGlobal('localStorage', memoryStorage({ userEmail: 'a@b.test', userToken: 'tok', userRole: 'operator', userName: 'Op' }));
  const fetchMock = vi.fn(async () => respond());
  vi.stubGlobal('fetch', fetchMock);
  vi.resetModules();
  const client = await import('./client');
  const session = await import('../auth/session');
  session.initSession();
  return { ...client, session, fetchMock };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('apiFetch', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends JSON with the bearer token and returns the body', async () => {
    const { apiFetch, fetchMock } = await setup(() => json(200, { ok: 1 }));
    await expect(apiFetch('/api/x', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ ok: 1 });
    const [path, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/x');
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer tok', 'Content-Type': 'application/json' });
  });

  it('sends Idempotency-Key only when given one', async () => {
    const { apiFetch, fetchMock } = await setup(() => json(201, {}));
    await apiFetch('/live-location', { method: 'POST', body: {}, idempotencyKey: 'form-1' });
    await apiFetch('/live-location', { method: 'POST', body: {} });
    const headersOf = (i: number) => (fetchMock.mock.calls[i] as unknown as [string, RequestInit])[1].headers;
    expect(headersOf(0)).toMatchObject({ 'Idempotency-Key': 'form-1' });
    expect(headersOf(1)).not.toHaveProperty('Idempotency-Key');
  });

  it('leaves the bearer out when auth is false', async () => {
    const { apiFetch, fetchMock } = await setup(() => json(200, {}));
    await apiFetch('/api/auth/signin', { method: 'POST', body: {}, auth: false });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.headers).not.toHaveProperty('Authorization');
  });

  it("throws ApiError carrying the status and the server's error text", async () => {
    const { apiFetch, ApiError } = await setup(() => json(409, { error: 'plate taken' }));
    const error = await apiFetch('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, serverError: 'plate taken', message: 'plate taken' });
  });

  it('has no server text when the body is not an error object', async () => {
    const { apiFetch } = await setup(() => new Response('oops', { status: 500 }));
    await expect(apiFetch('/api/x')).rejects.toMatchObject({ status: 500, serverError: undefined });
  });

  it('ends the session on 401 for an authenticated call only', async () => {
    const first = await setup(() => json(401, { error: 'expired' }));
    await first.apiFetch('/api/x', { auth: false }).catch(() => undefined);
    expect(first.session.getSession()).not.toBeNull();
    await first.apiFetch('/api/x').catch(() => undefined);
    expect(first.session.getSession()).toBeNull();
    expect(localStorage.getItem('userToken')).toBeNull();
  });
});

describe('newIdempotencyKey', () => {
  it('makes a fresh 128-bit hex key each time', async () => {
    const { newIdempotencyKey } = await import('./client');
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});
