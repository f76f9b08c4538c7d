import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../testing/memoryStorage';
import { forgetHandoff, isMutedDriver, readHandoff, saveHandoff, setMutedDriver, tokenOfLink } from './driverStandby';

const offer = (ended: 'cleared' | 'cancelled') => ({
  ambulanceId: 3, caseId: 'c2', priority: 1 as const, link: '/driver/3?t=AbCdEfGhIjKlMnOpQrStUv', from: { caseId: 'c1', ended },
});

describe('the driver page between calls', () => {
  it('takes the token of its own ambulance\'s driver link only', () => {
    expect(tokenOfLink('/driver/3?t=AbCdEfGhIjKlMnOpQrStUv', 3)).toBe('AbCdEfGhIjKlMnOpQrStUv');
    expect(tokenOfLink('/driver/4?t=AbCdEfGhIjKlMnOpQrStUv', 3)).toBeNull();
    expect(tokenOfLink('/track/3?t=AbCdEfGhIjKlMnOpQrStUv', 3)).toBeNull();
    expect(tokenOfLink('https://elsewhere.example/driver/3?t=AbCdEfGhIjKlMnOpQrStUv', 3)).toBe('AbCdEfGhIjKlMnOpQrStUv');
    expect(tokenOfLink('/driver/3?t=<script>', 3)).toBeNull();
    expect(tokenOfLink('/driver/3', 3)).toBeNull();
  });

  it('leaves the new page a note of the switch, read once, saying whether the unit was diverted', () => {
    const storage = memoryStorage();
    saveHandoff(storage, offer('cancelled'), 1000);
    expect(readHandoff(storage, '3', 2000)).toEqual({ ambulanceId: 3, caseId: 'c2', diverted: true, at: 1000 });
    forgetHandoff(storage, '3');
    expect(readHandoff(storage, '3', 2000)).toBeNull();
    saveHandoff(storage, offer('cleared'), 1000);
    expect(readHandoff(storage, '3', 2000)?.diverted).toBe(false);
    // A stale note (a tab reopened much later) says nothing.
    expect(readHandoff(storage, '3', 1000 + 61_000)).toBeNull();
    expect(readHandoff(memoryStorage({ 'lifeline.driverHandoff.3': '{oops' }), '3')).toBeNull();
    expect(readHandoff(null, '3')).toBeNull();
  });

  it('keeps the crew\'s mute', () => {
    const storage = memoryStorage();
    expect(isMutedDriver(storage)).toBe(false);
    setMutedDriver(storage, true);
    expect(isMutedDriver(storage)).toBe(true);
    setMutedDriver(storage, false);
    expect(isMutedDriver(storage)).toBe(false);
    expect(isMutedDriver(null)).toBe(false);
  });
});
