/**
 * The board's keys (a dispatcher works the open calls without the mouse): j/k or the arrows
 * between calls, n for the focused call's next step (Assign on a waiting one), a for Assign,
 * ? for the list of keys. Never while typing (a search box, a form field) or while a dialog or
 * menu has the keys, and never with Ctrl, Alt or Meta (the browser's and the system's own).
 */

export type BoardKeyAction = 'next-call' | 'previous-call' | 'first-call' | 'last-call' | 'step' | 'assign' | 'help';

/** The keys as the visible list says them. */
export const BOARD_KEYS: readonly { keys: string[]; what: string }[] = [
  { keys: ['j', '↓'], what: 'Next call' },
  { keys: ['k', '↑'], what: 'Previous call' },
  { keys: ['Home', 'End'], what: 'First or last call' },
  { keys: ['n'], what: 'Next step of the focused call (Assign on a waiting call)' },
  { keys: ['a'], what: 'Assign an ambulance to the focused waiting call, else to the most urgent waiting call' },
  { keys: ['Enter'], what: 'Press the focused button' },
  { keys: ['?'], what: 'Show or hide this list' },
];

export interface KeyPress { key: string; ctrlKey?: boolean; altKey?: boolean; metaKey?: boolean }

/**
 * What a key press does on the board, or null when it is not the board's. `typing`: the focus is in
 * a field, or a dialog or menu holds it. `onBoard`: the focus is on a call's card or in it (the
 * arrows, Home and End move between calls only there: elsewhere they scroll the page).
 */
export function boardKeyAction(e: KeyPress, where: { typing: boolean; onBoard: boolean }): BoardKeyAction | null {
  if (where.typing || e.ctrlKey || e.altKey || e.metaKey) return null;
  switch (e.key) {
    case 'j': return 'next-call';
    case 'k': return 'previous-call';
    case 'n': return 'step';
    case 'a': return 'assign';
    case '?': return 'help';
    case 'ArrowDown': return where.onBoard ? 'next-call' : null;
    case 'ArrowUp': return where.onBoard ? 'previous-call' : null;
    case 'Home': return where.onBoard ? 'first-call' : null;
    case 'End': return where.onBoard ? 'last-call' : null;
    default: return null;
  }
}

/** The call to focus after a move from `current` (-1: none focused) among `count`: j from none is the first, k from none the last. */
export function moveIndex(current: number, count: number, action: 'next-call' | 'previous-call' | 'first-call' | 'last-call'): number {
  if (count === 0) return -1;
  if (action === 'first-call') return 0;
  if (action === 'last-call') return count - 1;
  if (current < 0) return action === 'next-call' ? 0 : count - 1;
  return action === 'next-call' ? Math.min(count - 1, current + 1) : Math.max(0, current - 1);
}

/** Whether the focus is where keys are typed or another widget's (a field, an editable area, a dialog, a menu, a list box). */
export function isTypingTarget(el: Element | null): boolean {
  if (!el) return false;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !['button', 'checkbox', 'radio', 'submit', 'reset'].includes((el as HTMLInputElement).type);
  if ((el as HTMLElement).isContentEditable) return true;
  return el.closest('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], [role="combobox"]') != null;
}

/** Focuses a call's card, or with 'next' its next-step button when it has one (then Enter presses it). */
export function focusCard(card: HTMLElement | null | undefined, what: 'card' | 'next' = 'card') {
  if (!card) return;
  const next = what === 'next' ? card.querySelector<HTMLElement>('[data-board-action="next"]') : null;
  (next ?? card).focus();
}
