/**
 * `tsx scripts/bench/profileTop.ts FILE.cpuprofile [--top N]`: where a server's CPU went, from a
 * V8 profile (BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" writes one per server at
 * exit). Prints self time by function and by package (node_modules/<name>, node's own, or this
 * repository's folder), as shares of the sampled time, idle left out; and the inclusive time of
 * this repository's own functions (their synchronous subtree: what a middleware or a service call
 * costs up to its first await), which is how a request path is taken apart.
 */
import fs from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

export function selfTimes(p: Profile) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  const fns = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    total += us;
    const key = `${f.functionName || '(anonymous)'} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    const area = areaOf(f.url, f.functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const rank = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([k, us]) => ({ name: k, ms: us / 1000, share: us / total }));
  return { totalMs: total / 1000, functions: rank(fns), areas: rank(areas), own: rank(ownInclusive(p, byId, self)) };
}

const OWN = /(realtime-server|db|scripts)\//;

/** Inclusive time of this repository's functions: a node's self time counts once for each distinct own function above it. */
function ownInclusive(p: Profile, byId: Map<number, Node>, self: Map<number, number>) {
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const cf = byId.get(at)!.callFrame;
      if (!OWN.test(cf.url) || cf.url.includes('node_modules/')) continue;
      const key = `${cf.functionName || '(anonymous)'} ${shortUrl(cf.url)}:${cf.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.set(key, (out.get(key) ?? 0) + us);
    }
  }
  return out;
}

function shortUrl(url: string) {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const rs = url.search(/(realtime-server|db|scripts)\//);
  return rs >= 0 ? url.slice(rs) : url.replace(/^file:\/\//, '');
}

function areaOf(url: string, fn: string) {
  if (!url) return fn === '(garbage collector)' ? 'garbage collection' : `native ${fn}`;
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return `node ${url.slice(5).split('/')[0]}`;
  const rs = /(realtime-server\/[^/]+|db\/[^/]+)/.exec(url);
  return rs ? rs[1] : url;
}

if (process.argv[1] === import.meta.filename) {
  const [file] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const i = process.argv.indexOf('--top');
  const top = i > 0 ? Number(process.argv[i + 1]) : 25;
  if (!file) { console.error('usage: tsx scripts/bench/profileTop.ts FILE.cpuprofile [--top N]'); process.exit(2); }
  const r = selfTimes(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile);
  const pct = (x: number) => `${(x * 100).toFixed(1).padStart(5)} %`;
  console.log(`sampled busy time ${r.totalMs.toFixed(0)} ms\n\nby package or folder:`);
  for (const a of r.areas.slice(0, top)) console.log(`${pct(a.share)}  ${a.ms.toFixed(0).padStart(7)} ms  ${a.name}`);
  console.log('\nby function (self time):');
  for (const f of r.functions.slice(0, top)) console.log(`${pct(f.share)}  ${f.ms.toFixed(0).padStart(7)} ms  ${f.name}`);
  console.log("\nthis repository's functions (inclusive: their synchronous subtree):");
  for (const f of r.own.slice(0, top)) console.log(`${pct(f.share)}  ${f.ms.toFixed(0).padStart(7)} ms  ${f.name}`);
}
