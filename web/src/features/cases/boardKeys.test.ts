import { describe, expect, it } from 'vitest';
import { BOARD_KEYS, boardKeyAction, isTypingTarget, moveIndex } from './boardKeys';

const free = { typing: false, onBoard: false };
const onBoard = { typing: false, onBoard: true };

describe('the board\'s keys', () => {
  it('maps j/k, n, a and ? anywhere on the page, the arrows, Home and End only on the board', () => {
    expect(boardKeyAction({ key: 'j' }, free)).toBe('next-call');
    expect(boardKeyAction({ key: 'k' }, free)).toBe('previous-call');
    expect(boardKeyAction({ key: 'n' }, free)).toBe('step');
    expect(boardKeyAction({ key: 'a' }, free)).toBe('assign');
    expect(boardKeyAction({ key: '?' }, free)).toBe('help');
    expect(boardKeyAction({ key: 'ArrowDown' }, free)).toBeNull();
    expect(boardKeyAction({ key: 'ArrowDown' }, onBoard)).toBe('next-call');
    expect(boardKeyAction({ key: 'ArrowUp' }, onBoard)).toBe('previous-call');
    expect(boardKeyAction({ key: 'Home' }, onBoard)).toBe('first-call');
    expect(boardKeyAction({ key: 'End' }, onBoard)).toBe('last-call');
    expect(boardKeyAction({ key: 'Enter' }, onBoard)).toBeNull();
    expect(boardKeyAction({ key: 'x' }, onBoard)).toBeNull();
  });

  it('never takes a key while typing, nor with Ctrl, Alt or Meta', () => {
    for (const key of ['j', 'k', 'n', 'a', '?', 'ArrowDown']) {
      expect(boardKeyAction({ key }, { typing: true, onBoard: true })).toBeNull();
    }
    expect(boardKeyAction({ key: 'a', ctrlKey: true }, onBoard)).toBeNull();
    expect(boardKeyAction({ key: 'j', metaKey: true }, onBoard)).toBeNull();
    expect(boardKeyAction({ key: 'n', altKey: true }, onBoard)).toBeNull();
  });

  it('moves within the calls and stops at either end', () => {
    expect(moveIndex(-1, 3, 'next-call')).toBe(0);
    expect(moveIndex(-1, 3, 'previous-call')).toBe(2);
    expect(moveIndex(0, 3, 'next-call')).toBe(1);
    expect(moveIndex(2, 3, 'next-call')).toBe(2);
    expect(moveIndex(0, 3, 'previous-call')).toBe(0);
    expect(moveIndex(1, 3, 'first-call')).toBe(0);
    expect(moveIndex(1, 3, 'last-call')).toBe(2);
    expect(moveIndex(-1, 0, 'next-call')).toBe(-1);
  });

  it('knows where keys are typed: fields, editable areas, dialogs, menus and list boxes', () => {
    const el = (tagName: string, over: { type?: string; isContentEditable?: boolean; inWidget?: boolean } = {}) =>
      ({ tagName, type: over.type, isContentEditable: over.isContentEditable ?? false, closest: () => (over.inWidget ? {} : null) }) as unknown as Element;
    expect(isTypingTarget(el('INPUT', { type: 'text' }))).toBe(true);
    expect(isTypingTarget(el('INPUT', { type: 'search' }))).toBe(true);
    expect(isTypingTarget(el('INPUT', { type: 'checkbox' }))).toBe(false);
    expect(isTypingTarget(el('TEXTAREA'))).toBe(true);
    expect(isTypingTarget(el('SELECT'))).toBe(true);
    expect(isTypingTarget(el('DIV', { isContentEditable: true }))).toBe(true);
    expect(isTypingTarget(el('LI', { inWidget: true }))).toBe(true);
    expect(isTypingTarget(el('BUTTON'))).toBe(false);
    expect(isTypingTarget(el('ARTICLE'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('lists every key it takes', () => {
    const listed = BOARD_KEYS.flatMap((k) => k.keys);
    for (const key of ['j', 'k', 'n', 'a', '?']) expect(listed).toContain(key);
  });
});
