// npm run db:copy -- --from data/lifeline.sqlite --to postgres://user@host:5432/db
// Copies a Lifeline SQLite database into PostgreSQL, for a centre that outgrows one file.
// The copy itself: db/copySqliteToPostgres.ts.
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { copySqliteToPostgres } from '../db/copySqliteToPostgres';

const HELP = `Usage: npm run db:copy -- --from FILE.sqlite --to postgres://user@host:port/db[?schema=NAME] [options]

Copies every table of a Lifeline SQLite database into PostgreSQL:
  1. checks that the SQLite file is at the same migration as this code (start the server on it
     once if not) and migrates the target to the same version;
  2. refuses a target that already holds data (--force empties it first; it never merges);
  3. copies every table in foreign-key order, in batches, inside ONE transaction on the target
     (a failure leaves the target as it was), from one consistent read of the file;
  4. sets each serial id sequence past the highest copied id;
  5. compares the row count of every table before it commits, and prints a summary.

Stop the server that uses the SQLite file first (writes made during the copy are not copied).
Then start Lifeline with DATABASE_URL set to the target.

Options:
  --from FILE    the SQLite database (e.g. data/lifeline.sqlite)
  --to URL       the PostgreSQL database: postgres://user:password@host:5432/db, ?schema=NAME for a schema
  --force        empty every Lifeline table of the target before copying (its data is lost)
  --batch N      rows per INSERT (default 500)
  --help         this text`;

async function main() {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' }, to: { type: 'string' }, force: { type: 'boolean', default: false },
      batch: { type: 'string', default: '500' }, help: { type: 'boolean', default: false },
    },
  });
  if (values.help) { console.log(HELP); return 0; }
  if (!values.from || !values.to) { console.error(`${HELP}\n\n--from and --to are required.`); return 2; }
  try {
    await copySqliteToPostgres({ from: values.from, to: values.to, force: values.force, batch: Number(values.batch) });
    return 0;
  } catch (err) {
    console.error(`[db:copy] failed (the copy was rolled back: no rows were written to the target): ${(err as Error).message}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main().then((code) => process.exit(code));
