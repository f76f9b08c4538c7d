import { type Db, insertedId, nowIso } from './types';

/**
 * More than a page of text (SQLite's pages are 4 KB): a probe row needs pages the file may not
 * have, as the writes that failed did; a row that fitted in an existing page would go through
 * on a database that cannot grow.
 */
const PAYLOAD = 'health probe '.repeat(400);
/** Rows of nodes that stopped probing this long ago are removed by the next probe. */
const STALE_MS = 24 * 3600_000;

export const healthProbeRepository = {
  /** Resolves when the database answers a query (rejects with its error otherwise); writes nothing. */
  answers: async (db: Db) => { await db.raw('select 1'); },
  /** Writes this node's probe row and removes its earlier ones (and those of long-gone nodes). Run it in a transaction. */
  async write(db: Db, node: string) {
    const id = insertedId(await db('health_probe').insert({ node, written_at: nowIso(), payload: PAYLOAD }).returning('id'));
    const stale = new Date(Date.now() - STALE_MS).toISOString();
    await db('health_probe').where('id', '<', id).andWhere((q) => q.where({ node }).orWhere('written_at', '<', stale)).delete();
  },
};
