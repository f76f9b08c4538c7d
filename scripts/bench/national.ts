/**
 * `npm run bench -- --scenarios national [--repeat N] [--duration S]`: a national day's shape (issue 31) on the
 * three deployments in one invocation, interleaved: the SQLite server, one node on PostgreSQL + Redis, and three
 * nodes on PostgreSQL + Redis (all on CPU 0 here, the load on CPU 1). Each repetition is run.ts's fleet and dispatch
 * phases in a child with the shape's parameters; each figure is printed as its median (min–max) per deployment, with
 * PostgreSQL + Redis against SQLite, and how far the dispatch rate is from 30,000 calls a day.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../realtime-server/testing/spawnNode';
import { type Spread, spread } from './aggregate';
import { type Headline, childArgs, runOnce } from './repeat';

/** 2,000 units reporting every 5 s, 4,000 viewers, 50 staff boards, 8 dispatchers creating and closing calls. */
export const NATIONAL_SHAPE = ['--ambulances', '2000', '--rate', '0.2', '--viewers', '4000', '--staff', '50', '--dispatchers', '8', '--load-procs', '3'];
const DEPLOYMENTS = [
  { key: 'sqlite', label: 'SQLite, 1 node', args: [] as string[] },
  { key: 'pg1', label: 'PostgreSQL + Redis, 1 node', args: ['--nodes', '1'] },
  { key: 'pg3', label: 'PostgreSQL + Redis, 3 nodes', args: ['--nodes', '3'] },
] as const;
const CALLS_A_DAY = 30_000;

const FIGURES: { key: string; label: string }[] = [
  { key: 'fanout_p50_ms', label: 'viewer p50 ms (fleet)' },
  { key: 'fanout_p99_ms', label: 'viewer p99 ms (fleet)' },
  { key: 'staff_fanout_p99_ms', label: 'staff board p99 ms (fleet, 1 s tick)' },
  { key: 'dispatch_fanout_p99_ms', label: 'viewer p99 ms (with 8 dispatchers)' },
  { key: 'dispatch_calls', label: 'calls created and closed (per phase)' },
  { key: 'case_to_staff_p99_ms', label: 'case to every board p99 ms' },
  { key: 'lost', label: 'viewer deliveries lost (fleet)' },
  { key: 'fleet_cpu_us_per_delivery', label: 'server CPU µs per delivery (fleet)' },
  { key: 'dispatch_cpu_us_per_delivery', label: 'server CPU µs per delivery (with dispatchers)' },
  { key: 'server_cpu_pct', label: 'server CPU % of a core (summed over nodes)' },
  { key: 'server_rss_mb', label: 'server peak RSS MB (summed)' },
];

const fmt = (v: number) => (Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en') : String(Math.round(v * 10) / 10));
const show = (x: Spread | undefined) => (x ? `${fmt(x.median)} (${fmt(x.min)}–${fmt(x.max)})` : 'n/a');

export async function nationalMain(o: { argv: readonly string[]; repeat: number; jsonFile?: string; log: (...a: unknown[]) => void }) {
  const dir = path.join(ROOT, '.tmp/bench', `national-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  fs.mkdirSync(dir, { recursive: true });
  // The other arguments, which each child takes first (so `--ambulances 20` shrinks the shape for a smoke run).
  const extra = childArgs(o.argv, ['--scenarios', '--nodes']);
  const runs: Record<string, Headline[]> = Object.fromEntries(DEPLOYMENTS.map((d) => [d.key, []]));
  // Rotated each round (A B C, B C A, C A B): no deployment always runs first on a cold machine.
  for (let k = 0; k < o.repeat; k++) {
    for (let j = 0; j < DEPLOYMENTS.length; j++) {
      const d = DEPLOYMENTS[(j + k) % DEPLOYMENTS.length];
      o.log(`national: round ${k + 1} of ${o.repeat}, ${d.label}`);
      runs[d.key].push(await runOnce(['--scenarios', 'fleet,dispatch', ...extra, ...NATIONAL_SHAPE, ...d.args], path.join(dir, `${k + 1}-${d.key}.json`), undefined));
    }
  }
  const figures = Object.fromEntries(DEPLOYMENTS.map((d) => [d.key, Object.fromEntries(FIGURES.map((f) => [f.key, spread(runs[d.key].map((r) => r[f.key] as number))]))]));
  const seconds = runs.sqlite[0]?.seconds as number | undefined;
  const phase = Number(runs.sqlite[0]?.phase_seconds) || 30;
  const rows: string[][] = [['figure', ...DEPLOYMENTS.map((d) => d.label), 'PG 1 node / SQLite']];
  for (const f of FIGURES) {
    const s = figures.sqlite[f.key];
    const p = figures.pg1[f.key];
    rows.push([f.label, ...DEPLOYMENTS.map((d) => show(figures[d.key][f.key])), s && p && s.median > 0 ? `${(p.median / s.median).toFixed(2)}×` : 'n/a']);
  }
  // Calls a day the dispatchers' rate would make, against a national service's 30,000.
  rows.push(['calls a day at that rate (30,000 wanted)', ...DEPLOYMENTS.map((d) => {
    const c = figures[d.key].dispatch_calls;
    return c ? `${Math.round((c.median * 86_400) / phase).toLocaleString('en')} (${((c.median * 86_400) / phase / CALLS_A_DAY).toFixed(1)}×)` : 'n/a';
  }), '']);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`\nnational day: ${[...extra, ...NATIONAL_SHAPE].join(' ')} (the first of each option holds); ${o.repeat} rounds, deployments rotated; median (min–max)`);
  console.log(rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));
  console.log(`runs kept in ${path.relative(ROOT, dir)}${seconds ? `; one run ${seconds} s` : ''}`);
  const out = { shape: NATIONAL_SHAPE, repeat: o.repeat, figures, runs };
  fs.writeFileSync(path.join(dir, 'summary.json'), `${JSON.stringify(out, null, 2)}\n`);
  if (o.jsonFile) fs.writeFileSync(o.jsonFile, `${JSON.stringify(out, null, 2)}\n`);
}
