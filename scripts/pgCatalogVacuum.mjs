#!/usr/bin/env node
// Vacuums the system catalogs that test schemas churn. Every PostgreSQL test server creates a
// schema with its tables and drops it again: thousands of dead catalog rows a run. Where the
// server runs without autovacuum (as this project's machines do) they pile up over runs and
// make every catalog lookup, so every test, slower. Run by `npm test` before its PostgreSQL pass.
import pg from 'pg';

const CATALOGS = ['pg_attribute', 'pg_depend', 'pg_class', 'pg_index', 'pg_trigger', 'pg_constraint', 'pg_type', 'pg_attrdef', 'pg_sequence', 'pg_namespace'];
const url = process.env.DATABASE_URL ?? '';
if (!/^postgres(ql)?:\/\//.test(url)) process.exit(0);

const u = new URL(url);
u.searchParams.delete('schema');
const client = new pg.Client({ connectionString: u.toString() });
try {
  await client.connect();
  for (const table of CATALOGS) await client.query(`vacuum ${table}`);
} catch (err) {
  // Not the tests' failure: the pass runs anyway, only slower.
  console.warn(`[lifeline] could not vacuum the PostgreSQL catalogs (${err.message}); the PostgreSQL pass may run slower`);
} finally {
  await client.end().catch(() => {});
}
