import { describe, expect, it } from 'vitest';
import { isRedactedLink, kindLabel } from './outboxText';

describe('outbox links', () => {
  it('a link whose token was removed after sending is told apart from a live one', () => {
    expect(isRedactedLink('http://h/track/3?t=…')).toBe(true);
    expect(isRedactedLink('http://h/driver/3?t=%E2%80%A6')).toBe(true);
    expect(isRedactedLink('http://h/location/abc?t=…&x=1')).toBe(true);
    expect(isRedactedLink('http://h/track/3?t=Abc_-123')).toBe(false);
    expect(isRedactedLink('http://h/location/abc')).toBe(false);
  });
  it('names the sign-in code mail', () => {
    expect(kindLabel('signin-code')).toBe('Sign-in code');
  });
});
