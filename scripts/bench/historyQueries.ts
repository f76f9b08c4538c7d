/**
 * Times on the main thread each query the board and history run, over a SQLite file holding a
 * year built by historyFixture.ts's buildHistory (the bench's own year, one builder):
 * `tsx scripts/bench/historyQueries.ts --file F [--cases N] [--runs R]` (F is built with N calls, default 400,000,
 * when it is not there yet). better-sqlite3 runs a query synchronously, so its time is the time it holds the
 * event loop. Prints the median and the maximum of R runs per query as JSON lines.
 */
import fs from 'node:fs';
import { openDatabase } from '../../db/connection';
import { buildHistory } from './historyFixture';
import { type CaseHistoryFilter, type EndedKey, caseRepository } from '../../db/repositories/caseRepository';
import { PATIENT_LOCATION, SCAN_PAGE } from '../../realtime-server/jobs/retention';
import { BOARD_ENDED_MAX, HISTORY_COUNT_CAP } from '../../realtime-server/contract/caseLists';
import { encodeCursor, keysetPage } from '../../realtime-server/services/keysetCursor';
import type { CaseRow } from '../../db/repositories/types';

const argv = process.argv.slice(2);
const opt = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const file = opt('file');
if (!file) throw new Error('--file F: a SQLite file (built with --cases N calls when it is not there)');
const runs = Number(opt('runs') ?? 5);
if (!fs.existsSync(file)) console.log(JSON.stringify({ built: await buildHistory(file, { cases: Number(opt('cases') ?? 400_000) }) }));
const db = openDatabase(file);

async function time(label: string, work: () => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await work();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(JSON.stringify({ query: label, median_ms: +ms[Math.floor(ms.length / 2)].toFixed(1), max_ms: +ms[ms.length - 1].toFixed(1) }));
}
const page = async (f: CaseHistoryFilter, cursor?: string) => {
  const planned = await caseRepository.planSearch(db, f);
  await keysetPage<CaseRow>(caseRepository.history(db, planned), {
    list: 'cases', timeColumn: 'cases.created_at', idColumn: 'cases.id', idType: 'string', order: 'desc', limit: 25, cursor, keyOf: (r) => [r.created_at, r.id],
  });
  await caseRepository.countHistory(db, planned, HISTORY_COUNT_CAP);
};

const since = new Date(Date.now() - 12 * 3600_000).toISOString();
type Key = { created_at: string; id: string };
const total = (await caseRepository.counts(db)).total;
// Page 1,000 of 25 (or as deep as the file goes): its cursor is the key of the row before it.
const deep = (await db<Key>('cases').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).offset(Math.min(24_975, total - 26)).first('created_at', 'id'))!;
const someId = (await db<Key>('cases').orderBy('created_at').offset(Math.min(1234, total - 1)).first('id'))!.id;
await time('board: open calls', () => caseRepository.boardOpen(db));
await time('board: ended in 12 h', () => caseRepository.boardEnded(db, since, BOARD_ENDED_MAX));
await time('board: counts', () => caseRepository.counts(db));
await time('history: first page + count', () => page({}));
await time('history: page 1,000 by cursor + count', () => page({}, encodeCursor('cases', 'next', deep.created_at, deep.id)));
await time('history: status=closed page + count', () => page({ status: 'closed' }));
await time('search: a name ("ravi kumar")', () => page({ q: 'ravi kumar' }));
await time('search: an 8-char id prefix', () => page({ q: someId.slice(0, 8) }));
await time('search: an address word ("baker")', () => page({ q: 'baker' }));
await time('search: a plate ("ts09 eb 2015")', () => page({ q: 'ts09 eb 2015' }));
await time('search: a common word ("hyderabad")', () => page({ q: 'hyderabad' }));
await time('search: 2 characters ("zz")', () => page({ q: 'zz' }));
await time('search: a name within priority 1', () => page({ q: 'ravi kumar', priority: 1 }));
// Retention's hourly look for ended calls still holding a location: page by page, each page one hold of the thread.
const cutoff = new Date(Date.now() - 30 * 86_400_000).toISOString();
let after: EndedKey | null = null;
const pageMs: number[] = [];
const t0 = performance.now();
do {
  const t = performance.now();
  after = (await caseRepository.endedBeforeHoldingLocation(db, cutoff, after, SCAN_PAGE, PATIENT_LOCATION)).next;
  pageMs.push(performance.now() - t);
} while (after);
pageMs.sort((a, b) => a - b);
console.log(JSON.stringify({ query: `retention: ended calls still holding a location, ${pageMs.length} pages of ${SCAN_PAGE}`, total_ms: +(performance.now() - t0).toFixed(1), median_page_ms: +pageMs[Math.floor(pageMs.length / 2)].toFixed(1), max_page_ms: +pageMs[pageMs.length - 1].toFixed(1) }));
await db.destroy();
