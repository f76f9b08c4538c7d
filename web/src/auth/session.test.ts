import { beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../testing/memoryStorage';


async function startWith(items: Record<string, string>) {
  vi.stubGlobal('localStorage', memoryStorage(items));
  vi.resetModules();
  return import('./session');
}

const stored = () => Object.fromEntries(['userEmail', 'userToken', 'userRole', 'userName'].map((k) => [k, localStorage.getItem(k)]));

describe('session', () => {
  beforeEach(() => vi.unstubAllGlobals());

  it('keeps a complete staff session at start', async () => {
    const session = await startWith({ userEmail: 'a@b.test', userToken: 't', userRole: 'admin', userName: 'Ann' });
    expect(session.initSession()).toEqual({ email: 'a@b.test', token: 't', role: 'admin', name: 'Ann' });
  });

  it.each([
    ['a missing token', { userEmail: 'a@b.test', userRole: 'operator', userName: 'Op' }],
    ['a missing e-mail', { userToken: 't', userRole: 'operator' }],
    ['an unknown role', { userEmail: 'a@b.test', userToken: 't', userRole: 'driver', userName: 'D' }],
  ])('clears all four items at start on %s', async (_label, items) => {
    const session = await startWith(items);
    expect(session.initSession()).toBeNull();
    expect(stored()).toEqual({ userEmail: null, userToken: null, userRole: null, userName: null });
  });

  it('is decided once: later storage edits do not change it', async () => {
    const session = await startWith({});
    session.initSession();
    localStorage.setItem('userEmail', 'a@b.test');
    localStorage.setItem('userToken', 't');
    localStorage.setItem('userRole', 'admin');
    expect(session.getSession()).toBeNull();
  });

  it('saves a sign-in, the name falling back to the e-mail, and notifies', async () => {
    const session = await startWith({});
    const listener = vi.fn();
    session.subscribeSession(listener);
    session.saveSession({ token: 'tok', expiresAt: '', user: { id: 1, email: 'op@b.test', role: 'operator', username: '' } });
    expect(stored()).toEqual({ userEmail: 'op@b.test', userToken: 'tok', userRole: 'operator', userName: 'op@b.test' });
    expect(session.getSession()?.name).toBe('op@b.test');
    expect(listener).toHaveBeenCalled();
  });

  it('clears only the items asked for, ending the session', async () => {
    const session = await startWith({ userEmail: 'a@b.test', userToken: 't', userRole: 'operator', userName: 'Op' });
    session.clearSession(['userToken', 'userEmail']);
    expect(session.getSession()).toBeNull();
    expect(stored()).toEqual({ userEmail: null, userToken: null, userRole: 'operator', userName: 'Op' });
  });
});
