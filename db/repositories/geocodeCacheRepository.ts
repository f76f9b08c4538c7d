import { type Db, nowIso } from './types';

export const geocodeCacheRepository = {
  get: (db: Db, key: string) =>
    db<{ key: string; display_name: string }>('geocode_cache').where({ key }).first().then((r) => (r ? r.display_name : undefined)),
  put: (db: Db, key: string, displayName: string) =>
    db('geocode_cache').insert({ key, display_name: displayName, created_at: nowIso() }).onConflict('key').merge(),
  /** Deletes the place names looked up before `cutoffIso`; answers how many. */
  deleteBefore: (db: Db, cutoffIso: string): Promise<number> => db('geocode_cache').where('created_at', '<', cutoffIso).delete(),
};
