import type { TestProject } from 'vitest/node';
import { buildPostgresTemplate, buildSqliteTemplate } from './templateDb';
import { testEngine } from './testEngine';

/**
 * Once per vitest run, before any test file: the migrated databases the test servers copy
 * (templateDb.ts). The PostgreSQL one only on the PostgreSQL pass, the only one whose test
 * servers run there.
 */
export default async function setup(project: TestProject) {
  const sqlite = await buildSqliteTemplate();
  const postgres = testEngine() === 'postgres' ? await buildPostgresTemplate(process.env.DATABASE_URL!) : undefined;
  project.provide('sqliteTemplate', sqlite.file);
  project.provide('postgresTemplate', postgres?.name ?? '');
  return async () => {
    sqlite.dispose();
    await postgres?.dispose();
  };
}
