/**
 * `npm run bench -- --repeat N [--compare BASE_REF]`: the bench run N times, each figure as its
 * median with min–max; with --compare, BASE_REF's server built in a worktree of its own (its own
 * `npm ci`) and measured by this checkout's load, the two commits' runs interleaved (A B B A …),
 * each figure as a ratio with whether the ranges overlap (scripts/bench/aggregate.ts).
 *
 * Each repetition is a child `scripts/bench/run.ts` process with the same options; the base's
 * repetitions start their servers from the base worktree (BENCH_SERVER_ROOT), so the load, the
 * fixtures and the arithmetic are the same code on both sides.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../realtime-server/testing/spawnNode';
import { type Spread, FIGURES, FLOOR_FIGURES, NAMED_FIGURES, aggregate, compare, comparisonTable, interleave, showSpread } from './aggregate';

export type Headline = Record<string, unknown>;
type Side = 'base' | 'head';

/** Scenarios whose database is built by this checkout's code (its schema): a base server could not open it. */
const THIS_SCHEMA_ONLY = ['reports', 'reportStorm', 'history'];

const git = (args: string[], cwd = ROOT) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
};

/** BASE_REF checked out in .tmp/bench/base-<sha> with its own dependencies (reused when already there). */
export function prepareBase(ref: string, log: (...a: unknown[]) => void): { dir: string; sha: string } {
  const sha = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = path.join(ROOT, '.tmp', 'bench', `base-${sha.slice(0, 12)}`);
  if (!fs.existsSync(path.join(dir, 'package.json'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: ROOT });
    log(`base ${ref} (${sha.slice(0, 12)}): git worktree in ${path.relative(ROOT, dir)}`);
    git(['worktree', 'add', '--detach', dir, sha]);
  }
  if (!fs.existsSync(path.join(dir, 'node_modules', '.package-lock.json'))) {
    const lock = (root: string) => fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8');
    if (lock(dir) === lock(ROOT) && fs.existsSync(path.join(ROOT, 'node_modules', '.package-lock.json'))) {
      // The same lock file installs the same tree: a copy (not a link: each tree resolves its own) saves the download.
      log(`base ${sha.slice(0, 12)}: same package-lock.json as this checkout, node_modules copied`);
      const r = spawnSync('cp', ['-a', '--reflink=auto', path.join(ROOT, 'node_modules'), dir], { stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`copying node_modules to ${dir} failed (exit ${r.status})`);
    } else {
      log(`base ${sha.slice(0, 12)}: npm ci (its own dependencies, install scripts as its package.json approves them)`);
      const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
      if (r.status !== 0) throw new Error(`npm ci in ${dir} failed (exit ${r.status})`);
    }
  }
  fs.utimesSync(dir, new Date(), new Date());
  dropOldBases(dir, log);
  return { dir, sha };
}

/** Each base tree holds a node_modules (over 300 MB): the two most recently used are kept. */
function dropOldBases(keep: string, log: (...a: unknown[]) => void) {
  const parent = path.dirname(keep);
  const old = fs.readdirSync(parent).filter((n) => n.startsWith('base-')).map((n) => path.join(parent, n))
    .filter((d) => d !== keep).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs).slice(1);
  for (const d of old) {
    log(`removing the older base tree ${path.relative(ROOT, d)}`);
    spawnSync('git', ['worktree', 'remove', '--force', d], { cwd: ROOT });
    fs.rmSync(d, { recursive: true, force: true });
  }
}

/** One repetition: run.ts with these options in a child; its headline (the --json file's top level). */
export async function runOnce(args: string[], file: string, serverRoot: string | undefined): Promise<Headline> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/bench/run.ts'), ...args, '--repeat', '1', '--json', file], {
    cwd: ROOT,
    env: { ...process.env, ...(serverRoot ? { BENCH_SERVER_ROOT: serverRoot } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let table = '';
  child.stdout.on('data', (d) => { table += d; });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`bench run failed (exit ${code})`);
  fs.writeFileSync(file.replace(/\.json$/, '.txt'), table);
  const { details: _details, ...headline } = JSON.parse(fs.readFileSync(file, 'utf8')) as Headline;
  return headline;
}

/** Strips this module's own options (and `alsoStrip`, each with its value) from the arguments passed to each repetition. */
export function childArgs(argv: readonly string[], alsoStrip: readonly string[] = []): string[] {
  const strip = ['--repeat', '--compare', '--json', ...alsoStrip];
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (strip.includes(argv[i])) { i++; continue; }
    out.push(argv[i]);
  }
  return out;
}

export async function repeatMain(o: { argv: readonly string[]; repeat: number; compareRef?: string; jsonFile?: string; log: (...a: unknown[]) => void }) {
  const { log } = o;
  let args = childArgs(o.argv);
  let base: { dir: string; sha: string } | undefined;
  if (o.compareRef) {
    const i = args.indexOf('--scenarios');
    const asked = i >= 0 ? args[i + 1].split(',') : ['fleet', 'dispatch', 'polling', 'ingest', 'baselines'];
    const kept = asked.filter((s) => !THIS_SCHEMA_ONLY.includes(s));
    if (kept.length < asked.length) log(`--compare: ${asked.filter((s) => THIS_SCHEMA_ONLY.includes(s)).join(', ')} left out (their year is built with this checkout's schema)`);
    if (kept.length === 0) throw new Error('--compare: no scenario left to compare (reports and history cannot be)');
    args = i >= 0 ? [...args.slice(0, i), '--scenarios', kept.join(','), ...args.slice(i + 2)] : [...args, '--scenarios', kept.join(',')];
    base = prepareBase(o.compareRef, log);
  }
  const head = git(['rev-parse', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  const order: Side[] = base ? interleave(o.repeat) : Array.from({ length: o.repeat }, () => 'head' as const);
  const dir = path.join(ROOT, '.tmp', 'bench', `repeat-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  fs.mkdirSync(dir, { recursive: true });
  const runs: Record<Side, Headline[]> = { base: [], head: [] };
  for (const [k, side] of order.entries()) {
    log(`repetition ${k + 1} of ${order.length}: ${side === 'base' ? `base ${base!.sha.slice(0, 12)}` : `this checkout ${head.slice(0, 12)}${dirty ? ' (with uncommitted changes)' : ''}`}`);
    runs[side].push(await runOnce(args, path.join(dir, `${String(k + 1).padStart(2, '0')}-${side}.json`), side === 'base' ? base!.dir : undefined));
  }
  // Each side's servers ran the commit it names (run.ts reports the checkout it started them from).
  for (const side of ['base', 'head'] as const) {
    const want = (side === 'base' ? base?.sha : head)?.slice(0, 12);
    const ran = runs[side].map((r) => (typeof r.server_commit === 'string' ? r.server_commit.replace(/\+$/, '') : 'unknown'));
    if (ran.some((c) => c !== want)) throw new Error(`${side}: the servers ran ${ran.join(', ')}, not ${want}`);
  }
  const spreads = { base: aggregate(runs.base), head: aggregate(runs.head) };
  const names = { base: base ? `base ${base.sha.slice(0, 8)}` : 'base', head: `head ${head.slice(0, 8)}${dirty ? '+' : ''}` };
  const comparison = base ? compare(spreads.base, spreads.head) : undefined;

  console.log(`\n${o.repeat} repetition${o.repeat > 1 ? 's' : ''}${base ? ` of each commit, interleaved ${order.map((s) => (s === 'base' ? 'A' : 'B')).join(' ')} (A = ${names.base}, B = ${names.head})` : ''}; median (min–max)`);
  console.log(comparison ? comparisonTable(comparison, names) : spreadTable(spreads.head));
  for (const side of base ? (['base', 'head'] as const) : (['head'] as const)) {
    const bound = runs[side].flatMap((r) => (Array.isArray(r.generator_bound) ? (r.generator_bound as string[]) : []));
    if (bound.length) console.log(`${names[side]}: generator-bound phases (load CPU > 70 %; their latencies measure the generator too): ${bound.join('; ')}`);
  }
  console.log(`runs kept in ${path.relative(ROOT, dir)}`);
  const out = { repeat: o.repeat, order, head: { sha: head, dirty, runs: runs.head, spread: spreads.head }, ...(base ? { base: { ref: o.compareRef, sha: base.sha, runs: runs.base, spread: spreads.base }, comparison: comparison!.map((c) => ({ key: c.spec.key, label: c.spec.label, kind: c.spec.kind, ratio: c.ratio, overlap: c.overlap, verdict: c.verdict })) } : {}) };
  fs.writeFileSync(path.join(dir, 'summary.json'), `${JSON.stringify(out, null, 2)}\n`);
  if (o.jsonFile) fs.writeFileSync(o.jsonFile, `${JSON.stringify(out, null, 2)}\n`);
}

/** The compared figures first, then the ingest floor's, then every other numeric headline figure. */
function spreadTable(s: Record<string, Spread>): string {
  const named = [
    ...FIGURES.filter((f) => s[f.key]).map((f) => [`${f.kind === 'guard' ? '[guard] ' : ''}${f.label}`, showSpread(s[f.key])]),
    ...FLOOR_FIGURES.filter((f) => s[f.key]).map((f) => [f.label, showSpread(s[f.key])]),
  ];
  const rest = Object.keys(s).filter((k) => !NAMED_FIGURES.some((f) => f.key === k)).sort().map((k) => [k, showSpread(s[k])]);
  const rows = [...named, ...rest];
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n');
}
