// For the knex CLI: `NODE_OPTIONS='--import tsx' npx knex --knexfile scripts/knexfile.ts migrate:status`
// (the server migrates on start). DATABASE_URL is read as the server reads it (config.ts); a
// relative SQLite path is the repo root's, as for `npm start`, although knex runs from scripts/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { knexConfig } from '../db/connection';
import { loadConfig } from '../realtime-server/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { databaseUrl } = loadConfig();
export default knexConfig(/^postgres(ql)?:\/\//.test(databaseUrl) ? databaseUrl : path.resolve(root, databaseUrl));
