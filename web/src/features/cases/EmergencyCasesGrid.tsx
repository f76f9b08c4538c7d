import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { type RefObject, useEffect, useRef, useState } from 'react';
import type { CaseDto } from '../../api/contract';
import { patientNameOf } from '../../domain/caseRules';
import { CallTimesDialog } from './CallTimesDialog';
import { CaseCard } from './CaseCard';
import { EmptyPanel } from './EmptyPanel';
import { BoardKeysHelp } from './BoardKeysHelp';
import { boardKeyAction, focusCard, isTypingTarget, moveIndex } from './boardKeys';
import { CheckCircleIcon } from '../../layout/icons';

const cardsOf = (grid: HTMLElement) => [...grid.querySelectorAll<HTMLElement>('[data-testid="case-card"]')];

/**
 * The board's keys (boardKeys.ts), on the document while the board shows: j/k and the arrows move
 * the focus between the calls' cards, n presses the focused call's next step (Assign on a waiting
 * call), a opens Assign, ? the list of keys. When the focused call leaves the board (cleared, or
 * closed elsewhere), the focus goes to the call now in its place, never to the page's body.
 */
function useBoardKeys(grid: RefObject<HTMLElement | null>, toggleHelp: () => void, cases: readonly CaseDto[]) {
  const last = useRef<{ id: string; index: number } | null>(null);
  const help = useRef(toggleHelp);
  useEffect(() => {
    help.current = toggleHelp;
  }, [toggleHelp]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const section = grid.current;
      if (e.defaultPrevented || !section) return;
      const active = document.activeElement;
      const action = boardKeyAction(e, { typing: isTypingTarget(active), onBoard: active != null && section.contains(active) });
      if (!action) return;
      const cards = cardsOf(section);
      const current = cards.findIndex((c) => c.contains(active));
      const focused = cards[current];
      if (action === 'help') {
        e.preventDefault();
        help.current();
      } else if (action === 'step') {
        const button = focused?.querySelector<HTMLElement>('[data-board-action="next"], [data-board-action="assign"]');
        if (!button) return;
        e.preventDefault();
        button.click();
      } else if (action === 'assign') {
        const card = focused?.dataset.waiting === 'true' ? focused : cards.find((c) => c.dataset.waiting === 'true');
        const button = card?.querySelector<HTMLElement>('[data-board-action="assign"]');
        if (!card || !button) return;
        e.preventDefault();
        // The card holds the focus while the menu is open: the menu gives it back there as it closes.
        if (!card.contains(document.activeElement)) card.focus();
        button.click();
      } else {
        e.preventDefault();
        focusCard(cards[moveIndex(current, cards.length, action)]);
      }
    };
    const onFocus = (e: FocusEvent) => {
      const section = grid.current;
      const card = (e.target as Element | null)?.closest?.<HTMLElement>('[data-testid="case-card"]');
      if (!section || !card || !section.contains(card)) return;
      last.current = { id: card.dataset.caseId ?? '', index: cardsOf(section).indexOf(card) };
    };
    // The focus taken elsewhere on purpose (a click, a field) is not brought back.
    const onOut = (e: FocusEvent) => {
      if (e.relatedTarget instanceof Element && !grid.current?.contains(e.relatedTarget) && !e.relatedTarget.closest('[role="dialog"]')) last.current = null;
    };
    const onPointer = (e: PointerEvent) => {
      if (!grid.current?.contains(e.target as Node)) last.current = null;
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocus);
    document.addEventListener('focusout', onOut);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('focusout', onOut);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [grid]);

  // The focused call left the board: its place's call takes the focus (the one below, else the last).
  useEffect(() => {
    const section = grid.current;
    const was = last.current;
    if (!section || !was || (document.activeElement && document.activeElement !== document.body)) return;
    const cards = cardsOf(section);
    if (cards.some((c) => c.dataset.caseId === was.id)) return;
    focusCard(cards[Math.min(was.index, cards.length - 1)]);
  }, [grid, cases]);
}

/** The Emergency Cases tab: a card per open call (active or waiting), in the order given, worked by mouse or by keys. */
export function EmergencyCasesGrid({ cases, places, onMap }: { cases: CaseDto[]; places: Map<string, string>; onMap: (c: CaseDto) => void }) {
  const [times, setTimes] = useState<CaseDto | null>(null);
  const [help, setHelp] = useState(false);
  const grid = useRef<HTMLElement>(null);
  useBoardKeys(grid, () => setHelp((h) => !h), cases);
  if (cases.length === 0) {
    return (
      <EmptyPanel
        icon={<CheckCircleIcon color="success" />}
        title="No active emergency cases"
        text="All clear! There are currently no active emergency cases."
      />
    );
  }
  return (
    <>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: -1, mb: 1 }}>
        <Button size="small" color="inherit" onClick={() => setHelp(true)} aria-keyshortcuts="?" data-testid="board-keys-button">
          Keyboard shortcuts (?)
        </Button>
      </Box>
      <Box
        ref={grid}
        component="section"
        aria-label="Open calls, most urgent first"
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' } }}
      >
        {cases.map((c) => (
          <CaseCard key={c.id} item={c} place={places.get(c.id) ?? 'Location not specified'} onMap={() => onMap(c)} onTimes={() => setTimes(c)} />
        ))}
      </Box>
      {times && <CallTimesDialog caseId={times.id} name={patientNameOf(times)} onClose={() => setTimes(null)} />}
      <BoardKeysHelp open={help} onClose={() => setHelp(false)} />
    </>
  );
}
