import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../../testing/memoryStorage';
import { tonePattern } from './alertSound';
import { isMuted, muteKey, setMuted } from './muteStore';
import { flashFrame, flashTitle, stopTitleFlash } from './titleFlash';

/** A document stand-in: a title, a hidden flag and visibilitychange events. */
function fakeDoc(hidden: boolean) {
  const doc = Object.assign(new EventTarget(), { hidden, title: 'Lifeline' });
  const show = () => {
    doc.hidden = false;
    doc.dispatchEvent(new Event('visibilitychange'));
  };
  return { doc, asDocument: doc as unknown as Document, show };
}

describe('title flash', () => {
  afterEach(() => {
    stopTitleFlash();
    vi.useRealTimers();
  });

  it('alternates the alert and the page title while hidden, and restores it when visible', () => {
    vi.useFakeTimers();
    const { doc, asDocument, show } = fakeDoc(true);
    flashTitle('New P1 call', asDocument);
    expect(doc.title).toBe('(!) New P1 call');
    vi.advanceTimersByTime(1000);
    expect(doc.title).toBe('Lifeline');
    vi.advanceTimersByTime(1000);
    expect(doc.title).toBe('(!) New P1 call');
    flashTitle('P2 call waiting', asDocument);
    expect(doc.title).toBe('(!) P2 call waiting');
    show();
    expect(doc.title).toBe('Lifeline');
    vi.advanceTimersByTime(5000);
    expect(doc.title).toBe('Lifeline');
  });

  it('leaves a visible tab\'s title alone', () => {
    const { doc, asDocument } = fakeDoc(false);
    flashTitle('New P1 call', asDocument);
    expect(doc.title).toBe('Lifeline');
  });

  it('frames', () => {
    expect([0, 1, 2].map((t) => flashFrame('A', 'B', t))).toEqual(['(!) B', 'A', '(!) B']);
  });
});

describe('sounds', () => {
  it('gives priority 1 its own, longer pattern', () => {
    const p1 = tonePattern(1);
    const p2 = tonePattern(2);
    expect(p1.length).toBeGreaterThan(p2.length);
    expect(tonePattern(3)).toEqual(p2);
    expect(Math.max(...p1.map((t) => t.hz))).toBeGreaterThan(Math.max(...p2.map((t) => t.hz)));
    for (const p of [p1, p2]) for (let i = 1; i < p.length; i++) expect(p[i].at).toBeGreaterThanOrEqual(p[i - 1].at + p[i - 1].dur);
  });
});

describe('mute', () => {
  it('is kept per user', () => {
    const storage = memoryStorage();
    expect(isMuted(7, storage)).toBe(false);
    setMuted(7, true, storage);
    expect(isMuted(7, storage)).toBe(true);
    expect(isMuted(8, storage)).toBe(false);
    expect(storage.getItem(muteKey(7))).toBe('1');
    setMuted(7, false, storage);
    expect(isMuted(7, storage)).toBe(false);
  });
});
