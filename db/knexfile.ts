// For the knex CLI (`npx knex --knexfile db/knexfile.ts migrate:latest`); the server migrates on start.
import { knexConfig } from './connection';

export default knexConfig(process.env.DATABASE_URL || 'data/lifeline.sqlite');
