import * as z from 'zod/mini';
import { acceptedSearch } from '../shared/routeSearch';
import type { FleetFilter } from './fleetFilters';

/**
 * The fleet screen's search params: which filter button is pressed. All Ambulances is the
 * default and is not written in the URL (`?filter=all` is read as it, like any unknown value).
 */
const fleetSearchSchema = z.object({
  filter: z.optional(z.enum(['emergency', 'available', 'busy'])),
});
export type FleetSearch = z.output<typeof fleetSearchSchema>;

/** The fleet route's validateSearch: a filter it does not know falls back to All Ambulances. */
export const parseFleetSearch = (raw: Record<string, unknown>): FleetSearch => acceptedSearch(fleetSearchSchema, raw);

/** The search of a pressed filter button. */
export const fleetSearchOf = (filter: FleetFilter): FleetSearch => (filter === 'all' ? {} : { filter });
