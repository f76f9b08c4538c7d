import { useEffect, useRef } from 'react';

/**
 * Shows `text` once per new `key` (a query's errorUpdatedAt, or the text itself): a
 * re-render or a refetch that fails the same way says nothing new; a new failure does.
 * `show` is the page's own toast, so the public pages use it without MUI or notistack.
 */
export function useNoticeOnce(key: unknown, text: string | null, show: (text: string) => void) {
  const last = useRef<unknown>(undefined);
  useEffect(() => {
    const changed = key !== last.current;
    last.current = key;
    if (text && changed) show(text);
  }, [key, text, show]);
}
