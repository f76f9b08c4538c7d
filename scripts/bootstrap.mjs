#!/usr/bin/env node
// The front door: `npm start` and `npm test` on a fresh clone. Uses nothing but Node, so it
// runs before dependencies exist. It installs dependencies when node_modules is missing or
// stale, builds the web bundle when its sources are newer than the build, then starts the
// server (which migrates and seeds an empty database) or runs every test suite.
import { spawnSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectedPackages, installedCount, packagesWithInstallScripts, progressLine, readyLines } from './frontDoor.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2];
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const say = (msg) => console.log(`[lifeline] ${msg}`);

if (!['start', 'test', 'prepare'].includes(mode) || process.argv.includes('--help')) {
  console.log(`Usage: node scripts/bootstrap.mjs <start|test|prepare>
  start    install dependencies if needed, build the web app if stale, run the server
  test     the same preparation, then the linter, the type check and every test suite (vitest; browser tests when present)
  prepare  only the preparation`);
  process.exit(mode ? 0 : 2);
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Lifeline needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
  process.exit(1);
}

/** Like run(), without blocking the event loop (progress lines keep coming while it works). */
function runAsync(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

/** Dependencies are current when node_modules holds the hash of package.json + lock file. */
async function ensureDependencies() {
  const hash = createHash('sha256');
  for (const f of ['package.json', 'package-lock.json']) {
    if (fs.existsSync(path.join(root, f))) hash.update(fs.readFileSync(path.join(root, f)));
  }
  const want = hash.digest('hex');
  const stamp = path.join(root, 'node_modules', '.lifeline-deps');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === want) return;
  const useCi = fs.existsSync(path.join(root, 'package-lock.json'));
  const first = !fs.existsSync(path.join(root, 'node_modules'));
  say(`installing dependencies (npm ${useCi ? 'ci' : 'install'})${first ? ': the first start takes 2 to 3 minutes here, then the web app is built (about a minute); progress every 10 s' : ' ...'}`);
  const packages = expectedPackages(root);
  const scripts = packagesWithInstallScripts(root);
  const started = Date.now();
  const ticker = setInterval(() => say(`installing dependencies: ${progressLine(installedCount(root, packages), packages.length, Date.now() - started, scripts)}`), 10_000);
  const status = await runAsync('npm', [useCi ? 'ci' : 'install', '--no-audit', '--no-fund'], { shell: process.platform === 'win32' });
  clearInterval(ticker);
  if (status === 0) say(`dependencies installed in ${Math.round((Date.now() - started) / 1000)} s`);
  if (status !== 0) {
    console.error('Dependency installation failed.');
    process.exit(status);
  }
  fs.writeFileSync(stamp, want);
}

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === 'node_modules' || entry === 'e2e' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** Rebuilds dist/web when any web source, the contract or the build config is newer than the last build. */
function ensureWebBuild() {
  const stamp = path.join(root, 'dist', 'web', '.build-stamp');
  const sources = ['web', 'realtime-server/contract', 'vite.config.ts', 'package-lock.json'].map((p) => path.join(root, p));
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (built > 0 && Math.max(...sources.map(newestMtime)) <= built) return;
  say('building the web app (vite build) ...');
  // One run: the staff app, then the public pages beside it, then the .br/.gz siblings the server sends (vite.config.ts).
  const status = run(bin('vite'), ['build', '--logLevel', 'warn']);
  if (status !== 0) {
    console.error('The web build failed.');
    process.exit(status);
  }
  fs.writeFileSync(stamp, new Date().toISOString());
}

await ensureDependencies();
ensureWebBuild();
if (mode === 'prepare') process.exit(0);

if (mode === 'start') {
  say('starting the server (it migrates the database and seeds the demo data into an empty one) ...');
  // The IPC channel carries one message, the server's "ready" (its address and the demo accounts
  // that still sign in): printed here as plain lines, so the server's own log stays JSON.
  const child = spawn(bin('tsx'), ['realtime-server/main.ts', ...process.argv.slice(3)], { cwd: root, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  child.on('message', (m) => {
    if (m?.type !== 'lifeline:ready') return;
    for (const line of readyLines(m)) say(line);
    child.disconnect();
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  process.exit(runTests());
}

function runTests() {
  const pg = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');
  const skipped = [];
  if (!pg) {
    skipped.push('the PostgreSQL pass (every API, socket, job and reliability test again on PostgreSQL, each test server on a fresh schema) and the '
      + 'Postgres-only suites (db/postgres.test.ts, db/copySqliteToPostgres.test.ts, realtime-server/jobs/multiNode.test.ts, '
      + 'realtime-server/reliability/multiProcessRaces.test.ts, the index plans of the hot paths in realtime-server/http/routes/hotPathIndexes.test.ts, the batch-statement and row-lock tests of positionWriter.test.ts, and the Postgres runs of the race and fuzz tests): set DATABASE_URL=postgres://... to run them');
  } else {
    skipped.push('on the PostgreSQL pass: the kill -9 crash loop (about a SQLite file; it ran on the SQLite pass), and web/src and scripts unit tests (engine-free, or pinned to SQLite like liveCache.test.ts; they ran on the SQLite pass)');
  }
  if (!process.env.LONG_TESTS) skipped.push('the 3-minute reconnect test: LONG_TESTS=1 (npm run test:crash runs the long checks)');
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const passes = [];
  const failures = [];

  // The linter first: type-aware rules and the import boundaries between layers (eslint.config.js).
  say('lint (eslint) ...');
  const lintStarted = Date.now();
  const lintStatus = run(bin('eslint'), ['--max-warnings=0', '.']);
  if (lintStatus !== 0) failures.push('lint');
  passes.push(`lint: ${lintStatus === 0 ? 'clean' : 'problems found (above)'} in ${Math.round((Date.now() - lintStarted) / 1000)} s`);

  // The type check: each side against its own runtime's globals (tsconfig.json names the projects).
  say('typecheck (tsc -b) ...');
  const typecheckStarted = Date.now();
  const typecheckStatus = run(bin('tsc'), ['-b']);
  if (typecheckStatus !== 0) failures.push('typecheck');
  passes.push(`typecheck: ${typecheckStatus === 0 ? 'clean' : 'errors found (above)'} in ${Math.round((Date.now() - typecheckStarted) / 1000)} s`);

  // Pass 1: every test server on a fresh SQLite file. With DATABASE_URL=postgres://… a second
  // pass follows (TEST_ENGINE=sqlite leaves the Postgres-only suites to it).
  // Pass 2: the server-side suites again with every test server on a fresh PostgreSQL schema.
  const vitestPasses = [{ name: 'SQLite', env: pg ? { TEST_ENGINE: 'sqlite' } : {}, report: 'vitest-report.json', args: [] }];
  if (pg) vitestPasses.push({ name: 'PostgreSQL', env: { TEST_ENGINE: 'postgres' }, report: 'vitest-report-postgres.json', args: ['db/', 'realtime-server/'] });
  for (const [i, p] of vitestPasses.entries()) {
    say(`unit, API and socket tests (vitest), pass ${i + 1} of ${vitestPasses.length}: ${p.name} ...`);
    if (p.name === 'PostgreSQL') run(process.execPath, [path.join(root, 'scripts', 'pgCatalogVacuum.mjs')]);
    const vitestJson = path.join(root, '.tmp', p.report);
    fs.rmSync(vitestJson, { force: true });
    const started = Date.now();
    const status = run(bin('vitest'), ['run', ...p.args, '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`], { env: { ...process.env, ...p.env } });
    if (status !== 0) failures.push(`vitest on ${p.name}`);
    const c = { passed: 0, failed: 0, skipped: 0 };
    addVitestCounts(vitestJson, c);
    for (const k of Object.keys(counts)) counts[k] += c[k];
    passes.push(`vitest on ${p.name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped in ${Math.round((Date.now() - started) / 1000)} s`);
  }

  const e2eDir = path.join(root, 'web', 'e2e');
  if (fs.existsSync(e2eDir) && fs.readdirSync(e2eDir).some((f) => f.endsWith('.spec.ts'))) {
    const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
    if (!fs.existsSync(chromium)) {
      console.error(`Browser tests need Debian's Chromium at ${chromium}: apt-get install -y chromium (.ci/run does it).`);
      failures.push('browser tests (no chromium)');
    } else {
      say('browser tests (Playwright in Chromium) ...');
      const playwrightJson = path.join(root, '.tmp', 'playwright-report.json');
      fs.rmSync(playwrightJson, { force: true });
      const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightJson };
      const started = Date.now();
      if (run(bin('playwright'), ['test', '--reporter=list,json'], { env }) !== 0) failures.push('browser tests');
      const c = { passed: 0, failed: 0, skipped: 0 };
      addPlaywrightCounts(playwrightJson, c);
      for (const k of Object.keys(counts)) counts[k] += c[k];
      passes.push(`Playwright on SQLite: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped in ${Math.round((Date.now() - started) / 1000)} s`);
    }
  } else {
    skipped.push('browser tests: web/e2e has no specs yet');
  }

  if (skipped.length) say(`skipped: ${skipped.join('; ')}`);
  // A runner that crashed before reporting counts as a failure even with no failed test.
  if (failures.length && counts.failed === 0) counts.failed = failures.length;
  for (const p of passes) say(p);
  console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  if (failures.length) {
    say(`FAILED: ${failures.join(', ')}`);
    return 1;
  }
  say('all test suites passed');
  return 0;
}

function readJson(file) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return undefined; }
}

function addVitestCounts(file, counts) {
  const r = readJson(file);
  if (!r) return;
  counts.passed += r.numPassedTests ?? 0;
  counts.failed += r.numFailedTests ?? 0;
  counts.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}

function addPlaywrightCounts(file, counts) {
  const stats = readJson(file)?.stats;
  if (!stats) return;
  counts.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  counts.failed += stats.unexpected ?? 0;
  counts.skipped += stats.skipped ?? 0;
}
