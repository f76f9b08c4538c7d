import { type Db, nowIso } from './types';

export const geocodeCacheRepository = {
  get: (db: Db, key: string) =>
    db('geocode_cache').where({ key }).first().then((r) => (r ? (r.display_name as string) : undefined)),
  put: (db: Db, key: string, displayName: string) =>
    db('geocode_cache').insert({ key, display_name: displayName, created_at: nowIso() }).onConflict('key').merge(),
};
