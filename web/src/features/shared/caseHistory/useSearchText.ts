import { useEffect, useRef, useState } from 'react';

/** How long typing pauses before a search is asked of the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A search box over a search kept in the URL: the box answers every keystroke, the URL (and
 * so the server) gets the text once typing pauses. When the URL changes under the box (Back,
 * a link) the box follows it, unless it already says the same (a trailing space being typed stays).
 */
export function useSearchText(committed: string, commit: (text: string) => void, delayMs = SEARCH_DEBOUNCE_MS) {
  const [text, setText] = useState(committed);
  const [seen, setSeen] = useState(committed);
  // State adjusted while rendering, as React's docs do for a value that follows props.
  if (committed !== seen) {
    setSeen(committed);
    if (text.trim() !== committed) setText(committed);
  }
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  useEffect(() => {
    if (text.trim() === committed) return undefined;
    const timer = setTimeout(() => commitRef.current(text), delayMs);
    return () => clearTimeout(timer);
  }, [text, committed, delayMs]);
  return [text, setText] as const;
}
