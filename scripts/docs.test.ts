import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_NAMES } from '../realtime-server/config';
import { access } from '../realtime-server/policies/permissions';

/**
 * The docs hold to the code: README stays a front page, every relative link and anchor in
 * README.md and docs/ lands somewhere, the environment page names every variable the server
 * reads (and `--help` too), and the API page's table lists every mounted route. Reads files
 * only: no server, no build.
 */
const root = path.resolve(import.meta.dirname, '..');
const files = new Map<string, string>();
const read = (rel: string) => files.get(rel) ?? files.set(rel, fs.readFileSync(path.join(root, rel), 'utf8')).get(rel)!;
const DOCS = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Markdown without its code (a link or heading inside a code block or span is text, not markup), its lines kept in place. */
const withoutBlocks = (md: string) => md.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ''));
const withoutCode = (md: string) => withoutBlocks(md).replace(/`[^`\n]*`/g, 'code');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(md: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of withoutBlocks(md).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = m[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase().trim().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** Every link or image target in a markdown file, with the line it is on. */
export function linksOf(md: string): { target: string; line: number }[] {
  const text = withoutCode(md);
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({ target: m[1], line: text.slice(0, m.index).split('\n').length }));
}

/** The broken relative links of one file: a missing file, or an anchor its target does not have. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const { target, line } of linksOf(read(file))) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // http:, https:, mailto: are not this check's to judge
    const [rel, anchor] = target.split('#') as [string, string | undefined];
    const dest = rel ? path.normalize(path.join(path.dirname(file), decodeURIComponent(rel))) : file;
    if (!fs.existsSync(path.join(root, dest))) {
      broken.push(`${file}:${line}: ${target} (no file ${dest})`);
      continue;
    }
    if (anchor && dest.endsWith('.md') && !anchorsOf(read(dest)).has(anchor)) broken.push(`${file}:${line}: ${target} (no heading #${anchor} in ${dest})`);
  }
  return broken;
}

describe('the docs', () => {
  it('keep README.md a front page of at most 200 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(200);
  });

  it('link only to files and headings that exist (README.md and docs/*.md)', () => {
    expect(DOCS.length).toBeGreaterThan(4);
    expect(DOCS.flatMap(brokenLinks)).toEqual([]);
  });

  it('find a broken link or anchor when there is one (the check itself)', () => {
    const md = '# A title\n## Several nodes (PostgreSQL + Redis)\n### What `npm start` does\n## A title\n[ok](#a-title) [ok](#several-nodes-postgresql--redis) `[code](nowhere.md)`\n[bad](#no-such) ![img](docs/images/none.png)\n```\n[in a block](gone.md)\n```\n';
    expect(linksOf(md).map((l) => l.target)).toEqual(['#a-title', '#several-nodes-postgresql--redis', '#no-such', 'docs/images/none.png']);
    expect(anchorsOf(md)).toEqual(new Set(['a-title', 'several-nodes-postgresql--redis', 'what-npm-start-does', 'a-title-1']));
  });

  it('explain every environment variable the server reads, and no other, on docs/operations.md', () => {
    const ops = read('docs/operations.md');
    const section = ops.split(/^## Environment$/m)[1]?.split(/^## /m)[0] ?? '';
    const documented = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]);
    expect([...documented].sort()).toEqual([...ENV_NAMES].sort());
  });

  it('name every environment variable in `--help` (but the benchmark-only one)', () => {
    const main = read('realtime-server/main.ts');
    const help = main.slice(main.indexOf("process.argv.includes('--help')"), main.indexOf('process.exit(0)'));
    const missing = ENV_NAMES.filter((name) => name !== 'BENCH_WRITE_STATS' && !new RegExp(`\\b${name}\\b`).test(help));
    expect(missing).toEqual([]);
  });

  it('list every mounted route in docs/api.md\'s endpoint table', () => {
    const api = read('docs/api.md');
    const table = api.split(/^## Endpoints$/m)[1]?.split(/^## /m)[0] ?? '';
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    const listed = new Set(rows.flatMap((row) => [...row.split(' | ')[0].matchAll(/`([A-Z]+ [^`?]+)(?:\?[^`]*)?`/g)].map((m) => m[1])));
    const routes = Object.keys(access).filter((k) => !k.startsWith('socket:')).map((k) => k.replace(/:(\w+)/g, '{$1}'));
    expect(routes.filter((r) => !listed.has(r))).toEqual([]);
  });
});
