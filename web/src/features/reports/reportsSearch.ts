import * as z from 'zod/mini';
import { acceptedSearch, compact } from '../shared/routeSearch';
import type { PeriodChoice } from './PeriodPicker';
import { addDays, presetDays } from './reportPeriod';

/** A calendar day as the date inputs write it, and a real one (no 31 February). */
const day = z.optional(z.string().check(z.refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && addDays(v, 0) === v, 'must be a day, YYYY-MM-DD')));

/**
 * The reports screen's search params: the period preset, and the first and last day of a
 * custom one. Last 30 days is the default and is not written in the URL (`?period=last30` is
 * read as it); a preset is kept by name, so a link opened another day shows that day's "Last 7
 * days". A day left empty while choosing a custom period is not written either.
 */
const reportsSearchSchema = z.object({
  period: z.optional(z.enum(['today', 'last7', 'month', 'custom'])),
  first: day,
  last: day,
});
export type ReportsSearch = z.output<typeof reportsSearchSchema>;

/** The reports routes' validateSearch: a field it refuses falls back to its default; days only with Custom. */
export function parseReportsSearch(raw: Record<string, unknown>): ReportsSearch {
  const search = acceptedSearch(reportsSearchSchema, raw, ['first', 'last']);
  return search.period === 'custom' ? search : { ...search, first: undefined, last: undefined };
}

/** The picker's value of a search: a preset's days counted back from `today`, Custom's as written (empty when not). */
export function choiceOf(search: ReportsSearch, today: string): PeriodChoice {
  const preset = search.period ?? 'last30';
  if (preset === 'custom') return { preset, first: search.first ?? '', last: search.last ?? '' };
  return { preset, ...presetDays(preset, today) };
}

/** The search of a picker's value. */
export function searchOf(choice: PeriodChoice): ReportsSearch {
  if (choice.preset === 'last30') return {};
  if (choice.preset !== 'custom') return { period: choice.preset };
  return compact({ period: 'custom' as const, first: choice.first || undefined, last: choice.last || undefined });
}
