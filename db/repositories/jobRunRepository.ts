import { type Db, nowIso } from './types';

export interface JobRunRow { name: string; node: string; started_at: string; finished_at: string | null; runs: number }

export const jobRunRepository = {
  find: (db: Db, name: string) => db<JobRunRow>('job_runs').where({ name }).first(),
  /** Records a finished pass of `name` by `node` (an upsert: safe with several nodes). */
  finished: (db: Db, name: string, node: string, startedAt: string) =>
    db('job_runs')
      .insert({ name, node, started_at: startedAt, finished_at: nowIso(), runs: 1 })
      .onConflict('name')
      .merge({ node, started_at: startedAt, finished_at: nowIso(), runs: db.raw('job_runs.runs + 1') }),
};
