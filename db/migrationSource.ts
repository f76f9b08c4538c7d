import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Lists db/migrations/*.ts in name order and imports them from here, so the same loader
 * works under tsx (the server) and vitest (tests), where knex's own loader cannot import .ts.
 */
export const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return (await fs.promises.readdir(dir)).filter((f) => /^\d{14}_[\w-]+\.ts$/.test(f)).sort();
  },
  getMigrationName: (file) => file,
  getMigration: (file) => import(path.join(dir, file)),
};
