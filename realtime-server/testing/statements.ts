import type { Knex } from 'knex';
import { backgroundJob } from '../services/backgroundWork';

export interface Statement { sql: string; bindings: Knex.RawBinding[] }

/**
 * Every statement the server's knex runs for requests while `act` runs. A background job's
 * statements (the outbox worker's poll, retention) are left out: they may land in any window
 * and are no request's cost (services/backgroundWork.ts marks them; testServer.ts turns the mark on).
 */
export async function requestStatements(db: Knex, act: () => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const heard = (q: Statement) => { if (!backgroundJob()) seen.push({ sql: q.sql, bindings: q.bindings }); };
  db.on('query', heard);
  try {
    await act();
  } finally {
    db.off('query', heard);
  }
  return seen;
}
