/**
 * The `?t=` link token of a public route's search. The router parses search values as JSON
 * where they are, so a token of digits arrives as a number; it is read back as its text.
 */
export const linkTokenSearch = (search: Record<string, unknown>): { t?: string } =>
  search.t == null ? {} : { t: typeof search.t === 'string' ? search.t : JSON.stringify(search.t) };
