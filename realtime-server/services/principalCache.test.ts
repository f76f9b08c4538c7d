import { describe, expect, it } from 'vitest';
import { EventBus } from './events';
import { createPrincipalCache } from './principalCache';

/**
 * The bearer principal cache forgets a session the moment it is revoked, also when the
 * lookup that fills it was already on its way: a principal read before a revocation must
 * not be remembered after it.
 */

const principal = (sessionId: number, userId: number) => ({
  session: { id: sessionId, expires_at: new Date(Date.now() + 3600_000).toISOString() },
  user: { id: userId },
});

describe('principal cache', () => {
  it('remembers a principal and forgets it when its session is revoked', () => {
    const bus = new EventBus();
    const cache = createPrincipalCache({ bus });
    cache.set('h1', principal(1, 10), cache.stamp());
    expect(cache.get('h1')).toBeDefined();
    bus.publish([{ type: 'sessions.revoked', sessionIds: [1] }]);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('does not remember a principal read before its session was revoked (a lookup racing the revocation)', () => {
    const bus = new EventBus();
    const cache = createPrincipalCache({ bus });
    const stamp = cache.stamp(); // the lookup starts: the session is still live in the database
    bus.publish([{ type: 'sessions.revoked', sessionIds: [1] }]); // revoked and published meanwhile
    cache.set('h1', principal(1, 10), stamp); // the lookup's (now stale) answer arrives
    expect(cache.get('h1')).toBeUndefined();
  });

  it('does not remember a principal read before its user changed or was deleted', () => {
    const bus = new EventBus();
    const cache = createPrincipalCache({ bus });
    const before = cache.stamp();
    bus.publish([{ type: 'user.deleted', id: 10 }]);
    cache.set('h1', principal(1, 10), before);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('still remembers a lookup that began after the revocation (of another session)', () => {
    const bus = new EventBus();
    const cache = createPrincipalCache({ bus });
    bus.publish([{ type: 'sessions.revoked', sessionIds: [1] }]);
    cache.set('h2', principal(2, 10), cache.stamp());
    expect(cache.get('h2')).toBeDefined();
  });
});
