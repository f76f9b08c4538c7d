import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../../../testing/memoryStorage';
import { signinLimitText } from './signinLimitText';

describe('an operator\'s sign-in limits (Edit Operator)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says until when sign-in is limited, as a clock time, or that it is not', () => {
    const until = new Date(2026, 0, 5, 14, 7).toISOString();
    expect(signinLimitText({ limitedUntil: until }, 'en-GB')).toBe('Sign-in limited until 14:07');
    expect(signinLimitText({ limitedUntil: null })).toBe('Sign-in not limited');
  });

  it("DELETEs /api/users/{id}/signin-limits with the admin's session", async () => {
    vi.stubGlobal('localStorage', memoryStorage({ userEmail: 'admin@lifeline.test', userToken: 'tok', userRole: 'admin', userName: 'Admin' }));
    const cleared = { codeMails: 0, codeMailLimit: 10, failures: 0, failureLimit: 10, limitedUntil: null };
    const fetch = vi.fn(async () => new Response(JSON.stringify(cleared), { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    vi.resetModules();
    (await import('../../../auth/session')).initSession();
    const { mutations } = await import('../../../api/mutations');
    await expect(mutations.clearSigninLimits.request({ id: 7 })).resolves.toEqual(cleared);
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/users/7/signin-limits');
    expect(init).toMatchObject({ method: 'DELETE', headers: { Authorization: 'Bearer tok' } });
  });
});
