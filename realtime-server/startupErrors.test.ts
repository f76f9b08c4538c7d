import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { startServer } from './server';
import { onPostgresPass } from './testing/testEngine';

/** About a SQLite file's path: it ran on the SQLite pass, so the PostgreSQL pass leaves it out. */
const SKIP_PG = onPostgresPass();

/**
 * A SQLite DATABASE_URL the server cannot use stops the start with one message that names
 * the path and the real cause, both from startServer and from the real process (exit 1).
 *
 * Tests run as root, who writes through permission bits; the permission cases run the real
 * process as `nobody` (uid 65534) when the tests run as root, and as the test's own user otherwise.
 */

const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-startup-'));
fs.chmodSync(dir, 0o755);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = path.join(dir, 'file.txt');
fs.writeFileSync(file, 'not a directory');
const aDirectory = path.join(dir, 'a-directory');
fs.mkdirSync(aDirectory);
const notADatabase = path.join(dir, 'notes.sqlite');
fs.writeFileSync(notADatabase, 'These are notes, not a SQLite database. '.repeat(200));

const start = (databaseUrl: string) =>
  startServer(loadConfig({ DATABASE_URL: databaseUrl, PORT: '0', SEED: 'none', GEOCODER_URL: 'off', STATIC_DIR: path.join(dir, 'web') }), { log: pino({ level: 'silent' }) });

/** Every path and cause this machine can show honestly, as root or not. */
const cases: [string, string, string][] = [
  ['a path under a regular file', path.join(file, 'lifeline.sqlite'), `${file} is a file, not a directory (ENOTDIR)`],
  ['a path further under a regular file', path.join(file, 'data', 'db', 'lifeline.sqlite'), `${file} is a file, not a directory (ENOTDIR)`],
  ['an existing directory', aDirectory, `${aDirectory} is a directory, not a file (EISDIR)`],
  ['a file that is not a database', notADatabase, 'file is not a database (SQLITE_NOTADB)'],
  // /proc takes no new directories, even from root (and Node's recursive mkdir spins forever on it).
  ['a directory that cannot be created (/proc)', '/proc/lifeline-test/lifeline.sqlite', 'cannot create the directory /proc/lifeline-test: no such file or directory (ENOENT)'],
];
// sysfs refuses new files, even from root.
if (fs.existsSync('/sys/kernel')) cases.push(['a file that cannot be created (/sys)', '/sys/lifeline-test.sqlite', 'cannot create /sys/lifeline-test.sqlite: permission denied (EACCES)']);

describe.skipIf(SKIP_PG)('startServer refuses an unusable SQLite path with the path and the cause', () => {
  it.each(cases)('%s', async (_what, databaseUrl, cause) => {
    await expect(start(databaseUrl)).rejects.toThrow(`Cannot open the SQLite database at ${databaseUrl}: ${cause}`);
  });

  it('a relative path is named as the absolute path it means', async () => {
    const relative = path.relative(process.cwd(), path.join(file, 'lifeline.sqlite'));
    await expect(start(relative)).rejects.toThrow(`Cannot open the SQLite database at ${path.join(file, 'lifeline.sqlite')}: ${file} is a file, not a directory (ENOTDIR)`);
  });

  it('nothing is left behind: no directory made under the file, no database file in the directory', () => {
    expect(fs.readFileSync(file, 'utf8')).toBe('not a directory');
    expect(fs.readdirSync(aDirectory)).toEqual([]);
  });
});

/** The first directory on the way to `target` that `uid` may not enter (owner, or anyone's search bit), if any. */
function unsearchableAncestor(target: string, uid: number): string | undefined {
  let dirPath = path.resolve(target);
  const chain: string[] = [];
  for (;;) {
    chain.unshift(dirPath);
    const parent = path.dirname(dirPath);
    if (parent === dirPath) break;
    dirPath = parent;
  }
  return chain.find((d) => {
    const st = fs.statSync(d);
    return !(st.uid === uid ? st.mode & 0o100 : st.mode & 0o001);
  });
}

/**
 * `node --import tsx realtime-server/main.ts` with `env`, as `uid` when given; answers its exit
 * code and output. One process, where the tsx command would start node twice (its own and the script's).
 */
function runMain(env: Record<string, string>, uid?: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'realtime-server/main.ts'], {
      cwd: root,
      env: { ...process.env, REDIS_URL: '', PORT: '0', SEED: 'none', GEOCODER_URL: 'off', STATIC_DIR: path.join(dir, 'web'), ...env, ...(uid === undefined ? {} : { HOME: os.tmpdir() }) },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(uid === undefined ? {} : { uid, gid: uid }),
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => { output += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { output += c.toString('utf8'); });
    // A start that hangs is a failure too.
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`main.ts did not exit within 30 s:\n${output}`)); }, 30_000);
    child.once('error', reject);
    child.once('exit', (code) => { clearTimeout(timer); resolve({ code, output }); });
  });
}

/** The fatal line main.ts logs (pino JSON). */
function fatalLine(output: string) {
  const line = output.split('\n').map((l) => { try { return JSON.parse(l); } catch { return undefined; } }).find((l) => l?.level === 60);
  expect(line, output).toBeDefined();
  return line as { msg: string };
}

describe.skipIf(SKIP_PG)('the real process exits 1 and logs the path and the cause', () => {
  it.each(cases.filter(([what]) => /regular file|\/proc|existing directory/.test(what)))('%s', async (_what, databaseUrl, cause) => {
    const { code, output } = await runMain({ DATABASE_URL: databaseUrl });
    expect(code, output).toBe(1);
    expect(fatalLine(output).msg).toBe(`Lifeline failed to start: Cannot open the SQLite database at ${databaseUrl}: ${cause}`);
  }, 40_000);

  const asRoot = process.getuid?.() === 0;
  const uid = asRoot ? 65534 : undefined;
  const who = asRoot ? 'nobody' : 'this user';
  // As root, permissions are only enforced for another user, who must be able to reach the checkout to run it.
  const unreachable = uid === undefined ? undefined : unsearchableAncestor(root, uid);
  if (unreachable) console.log(`[startupErrors] permission cases skipped: ${unreachable} is not searchable by uid ${uid}, who would run the server (clone into a path others may enter to run them)`);
  const permissionCase = unreachable ? it.skip : it;

  permissionCase(`a directory ${who} may not write into`, async () => {
    const locked = fs.mkdtempSync(path.join(dir, 'locked-'));
    fs.chmodSync(locked, 0o555);
    const db = path.join(locked, 'lifeline.sqlite');
    const { code, output } = await runMain({ DATABASE_URL: db }, uid);
    expect(code, output).toBe(1);
    expect(fatalLine(output).msg).toBe(`Lifeline failed to start: Cannot open the SQLite database at ${db}: cannot create ${db}: permission denied (EACCES)`);
  }, 40_000);

  permissionCase(`a database file ${who} may not write`, async () => {
    const own = fs.mkdtempSync(path.join(dir, 'own-'));
    if (uid !== undefined) fs.chownSync(own, uid, uid);
    const db = path.join(own, 'lifeline.sqlite');
    fs.writeFileSync(db, '');
    fs.chmodSync(db, 0o444);
    const { code, output } = await runMain({ DATABASE_URL: db }, uid);
    expect(code, output).toBe(1);
    expect(fatalLine(output).msg).toBe(`Lifeline failed to start: Cannot open the SQLite database at ${db}: cannot write ${db}: permission denied (EACCES)`);
  }, 40_000);

  permissionCase(`a writable database file in a directory ${who} may not write into (SQLite needs its -wal and -shm files beside it)`, async () => {
    const locked = fs.mkdtempSync(path.join(dir, 'walless-'));
    const db = path.join(locked, 'lifeline.sqlite');
    fs.writeFileSync(db, '');
    if (uid !== undefined) fs.chownSync(db, uid, uid);
    fs.chmodSync(locked, 0o555);
    const { code, output } = await runMain({ DATABASE_URL: db }, uid);
    expect(code, output).toBe(1);
    expect(fatalLine(output).msg).toBe(`Lifeline failed to start: Cannot open the SQLite database at ${db}: the directory ${locked} is not writable, and SQLite keeps its -wal and -shm files there: permission denied (EACCES)`);
  }, 40_000);
});

describe.skipIf(SKIP_PG)('a bad TRUSTED_PROXY stops the start and closes what was opened', () => {
  it('throws naming the entry, and leaves the database closed (SQLite removes its WAL file only when the last connection closes)', async () => {
    const databaseUrl = path.join(dir, 'proxy.sqlite');
    const config = loadConfig({ DATABASE_URL: databaseUrl, PORT: '0', SEED: 'none', GEOCODER_URL: 'off', STATIC_DIR: path.join(dir, 'web'), TRUSTED_PROXY: 'proxy.internal' });
    await expect(startServer(config, { log: pino({ level: 'silent' }) })).rejects.toThrow(/TRUSTED_PROXY: "proxy.internal"/);
    expect(fs.existsSync(databaseUrl)).toBe(true);
    expect(fs.existsSync(`${databaseUrl}-wal`)).toBe(false);
  });
});
