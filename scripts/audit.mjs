#!/usr/bin/env node
// `npm run audit`: `npm audit --audit-level=high`, with the findings docs/operations.md justifies
// (its "Dependency audit" table, by advisory id or URL) allowed. Exit 0 clean, 1 when an
// unjustified high or critical finding remains, 3 when the advisory service could not be
// asked (a registry or mirror without npm's audit endpoint): then nothing was checked.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (process.argv.includes('--help')) {
  console.log('Usage: npm run audit\n  npm audit --audit-level=high, allowing the advisories justified in docs/operations.md ("Dependency audit").\n  Exit 0 clean, 1 unjustified findings, 3 the audit endpoint could not be reached.');
  process.exit(0);
}

const run = spawnSync('npm', ['audit', '--json', '--audit-level=high'], { cwd: root, encoding: 'utf8' });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`[audit] npm audit gave no report:\n${run.stderr}`);
  process.exit(3);
}
if (report.statusCode || report.error || !report.vulnerabilities) {
  console.error(`[audit] could not run: ${report.message ?? report.error?.summary ?? 'no answer from the audit endpoint'}. Nothing was checked.`);
  process.exit(3);
}

const operations = fs.readFileSync(path.join(root, 'docs', 'operations.md'), 'utf8');
const section = operations.split(/^## Dependency audit$/m)[1]?.split(/^## /m)[0] ?? '';
const justified = new Set([...section.matchAll(/GHSA-[\w-]+|https:\/\/github\.com\/advisories\/[\w-]+/g)].map((m) => m[0].replace('https://github.com/advisories/', '')));

const open = [];
for (const [name, v] of Object.entries(report.vulnerabilities)) {
  for (const via of v.via) {
    if (typeof via !== 'object' || !['high', 'critical'].includes(via.severity)) continue;
    const id = String(via.url ?? '').replace('https://github.com/advisories/', '');
    if (!justified.has(id)) open.push(`${via.severity} ${name} ${via.range}: ${via.title} (${via.url})`);
  }
}
if (open.length) {
  console.error(`[audit] ${open.length} high or critical finding(s) not justified in docs/operations.md "Dependency audit":\n  ${open.join('\n  ')}`);
  process.exit(1);
}
console.log(`[audit] clean at high and above (${justified.size} justified in docs/operations.md)`);
