/** What the bench's smoke tests share (each scenario's file runs beside the others): `npm run bench` as a child, its JSON read. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT } from '../../realtime-server/testing/spawnNode';

/** Runs `npm run bench` with these arguments and `--json`; its exit code must be 0. Answers the report and the output. */
export async function bench(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')), 'out.json');
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/run.ts', ...args, '--json', out], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (d) => { text += d; });
  child.stderr.on('data', (d) => { text += d; });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code, text).toBe(0);
  return { r: JSON.parse(fs.readFileSync(out, 'utf8')), text };
}

/** Every acknowledged position was heard by each of its ambulance's viewers, and timed; none lost. */
export function expectEveryPositionHeard(r: any) {
  const f = r.details.fleet;
  expect(f.positions_acked).toBeGreaterThan(0);
  expect(f.expected_viewer_deliveries).toBe(f.positions_acked * (r.viewers / r.ambulances));
  expect(f.viewer_fanout.n).toBe(f.expected_viewer_deliveries);
  expect(r.lost).toBe(0);
}
