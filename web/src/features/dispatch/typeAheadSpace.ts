import type { KeyboardEvent } from 'react';

/** MUI's menu type-ahead forgets the typed text after this pause. */
const TYPE_AHEAD_MS = 500;

/**
 * Props for a select's option list so that a plate can be typed into the open list: MUI
 * selects the focused option on Space, so typing 'TS09 EA 1006' would pick whichever
 * ambulance was focused at the first space. While a search is being typed (a character less
 * than half a second ago) a Space is part of the search; on its own it still selects.
 */
export function typeAheadSpaceProps() {
  let lastTyped = 0;
  return {
    // Capture: before the option's own handler, which selects on a Space not yet prevented.
    onKeyDownCapture: (e: KeyboardEvent) => {
      if (e.key.length !== 1) return;
      const typing = performance.now() - lastTyped < TYPE_AHEAD_MS;
      if (e.key === ' ' && !typing) return;
      if (e.key === ' ') e.preventDefault(); // still seen by the list's search, which ignores that flag
      lastTyped = performance.now();
    },
  };
}
