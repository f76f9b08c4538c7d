import { type Db, nowIso } from './types';

/** Address searches answered by the geocoder: the results as JSON text, keyed by the normalised query. */
export const geocodeSearchRepository = {
  get: (db: Db, query: string) =>
    db<{ query: string; results: string }>('geocode_searches').where({ query }).first().then((r) => (r ? r.results : undefined)),
  put: (db: Db, query: string, resultsJson: string) =>
    db('geocode_searches').insert({ query, results: resultsJson, created_at: nowIso() }).onConflict('query').merge(),
  /** Deletes the searches made before `cutoffIso`; answers how many. */
  deleteBefore: (db: Db, cutoffIso: string): Promise<number> => db('geocode_searches').where('created_at', '<', cutoffIso).delete(),
};
