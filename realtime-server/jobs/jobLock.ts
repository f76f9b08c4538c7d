import { tryWithAdvisoryLock } from '../../db/advisoryLock';
import { isSqlite } from '../../db/connection';
import { jobRunRepository } from '../../db/repositories/jobRunRepository';
import { nowIso } from '../../db/repositories/types';
import type { ServiceContext } from '../services/context';

export type JobOutcome<T> =
  | { ran: true; result: T }
  | { ran: false; reason: 'locked' | 'recent' };

/**
 * Runs one pass of a periodic job so that, with several nodes on one PostgreSQL database,
 * no two nodes run it at once and it runs once per interval in all:
 *
 * - a session advisory lock (`pg_try_advisory_lock`, keyed by the job and the schema) held
 *   on a connection of its own for the whole pass: a node that does not get it skips its pass
 *   (`locked`) — the node holding it is doing the work;
 * - under the lock, `job_runs` says when the job last finished: within `minIntervalMs` the
 *   pass is skipped (`recent`), so N nodes on an hourly timer still run it once an hour.
 *
 * The lock goes with the connection if the node dies (PostgreSQL releases it); a pass that
 * fails is not recorded, so the next timer tick (on any node) tries again.
 * SQLite serves one process per file: the pass just runs (no lock, no interval check).
 */
export async function runJobExclusive<T>(
  { db, nodeId }: Pick<ServiceContext, 'db' | 'nodeId'>, name: string, minIntervalMs: number, fn: () => Promise<T>,
): Promise<JobOutcome<T>> {
  if (isSqlite(db)) return { ran: true, result: await fn() };
  const pass = await tryWithAdvisoryLock(db, `lifeline.job.${name}`, async (): Promise<JobOutcome<T>> => {
    const last = await jobRunRepository.find(db, name);
    if (last?.finished_at && Date.now() - Date.parse(last.finished_at) < minIntervalMs) return { ran: false, reason: 'recent' };
    const startedAt = nowIso();
    const result = await fn();
    await jobRunRepository.finished(db, name, nodeId, startedAt);
    return { ran: true, result };
  });
  return pass.locked ? { ran: false, reason: 'locked' } : pass.result;
}
