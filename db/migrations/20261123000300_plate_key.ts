import type { Knex } from 'knex';
import { plateKey } from '../repositories/plateKey';
import { clientName } from '../repositories/types';

/**
 * Plates that read the same are one ambulance: `plate_key` becomes the look-alike key
 * (repositories/plateKey.ts: NFKC, upper case, Unicode confusable skeleton, no separators)
 * instead of the plate upper-cased without spaces and dashes, under the same UNIQUE index.
 *
 * Existing rows are keyed again, oldest first. Two ambulances already in the fleet whose
 * plates look alike cannot both hold the key: the older one does, the younger keeps a key of
 * its own (`KEY#id`) until its plate is edited, and a new look-alike of either is refused.
 * On PostgreSQL the column becomes `text` (a key may be longer than its plate); SQLite does
 * not enforce lengths.
 */
const oldKey = (plate: string) => plate.toUpperCase().replace(/[\s-]+/g, '');

async function rekey(knex: Knex, key: (plate: string) => string) {
  const rows: { id: number; license_plate: string }[] = await knex('ambulances').orderBy('id').select('id', 'license_plate');
  // First out of the way (no row may meet another's old key halfway), then the real keys.
  for (const r of rows) await knex('ambulances').where({ id: r.id }).update({ plate_key: `#${r.id}` });
  const taken = new Set<string>();
  for (const r of rows) {
    let k = key(r.license_plate);
    if (taken.has(k)) k = `${k}#${r.id}`;
    taken.add(k);
    await knex('ambulances').where({ id: r.id }).update({ plate_key: k });
  }
}

export async function up(knex: Knex) {
  if (clientName(knex) === 'pg') await knex.raw('alter table ambulances alter column plate_key type text');
  await rekey(knex, plateKey);
}

export async function down(knex: Knex) {
  await rekey(knex, oldKey);
  if (clientName(knex) === 'pg') await knex.raw('alter table ambulances alter column plate_key type varchar(20)');
}
