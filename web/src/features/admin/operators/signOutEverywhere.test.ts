import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../../../testing/memoryStorage';
import { signOutQuestion, signedOutText } from './signOutEverywhere';

describe('sign out everywhere', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names how many sessions ended', () => {
    expect(signedOutText('Ravi Kumar', 2)).toBe('Signed Ravi Kumar out everywhere: 2 sessions ended');
    expect(signedOutText('Ravi Kumar', 1)).toBe('Signed Ravi Kumar out everywhere: 1 session ended');
    expect(signedOutText('Ravi Kumar', 0)).toBe('Ravi Kumar was not signed in anywhere');
  });

  it('asks first, naming the operator', () => {
    expect(signOutQuestion('Ravi Kumar')).toBe('Sign Ravi Kumar out everywhere? Every device where Ravi Kumar is signed in must sign in again.');
  });

  it("POSTs /api/users/{id}/signout with the admin's session and answers {success, revoked}", async () => {
    vi.stubGlobal('localStorage', memoryStorage({ userEmail: 'admin@lifeline.test', userToken: 'tok', userRole: 'admin', userName: 'Admin' }));
    const fetch = vi.fn(async () => new Response(JSON.stringify({ success: true, revoked: 3 }), { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    vi.resetModules();
    (await import('../../../auth/session')).initSession();
    const signOutEverywhere = (await import('../../../api/mutations')).mutations.signOutEverywhere.request;
    await expect(signOutEverywhere({ id: 7 })).resolves.toEqual({ success: true, revoked: 3 });
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/users/7/signout');
    expect(init).toMatchObject({ method: 'POST', body: undefined, headers: { Authorization: 'Bearer tok' } });
  });
});
