import { useEffect, useState } from 'react';

const STORAGE_KEY = 'darkMode';

/** The operator's dark-mode choice: kept across reloads and mirrored as a `dark` class on <html>. */
export function useDarkMode() {
  const [dark, setDark] = useState(() => localStorage.getItem(STORAGE_KEY) === 'true');

  useEffect(() => {
    localStorage.setItem(STORAGE_KEY, String(dark));
    document.documentElement.classList.toggle('dark', dark);
    return () => document.documentElement.classList.remove('dark');
  }, [dark]);

  return { dark, toggle: () => setDark((value) => !value) };
}
