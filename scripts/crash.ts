/**
 * The crash loop: runs the real server as a child process under a write load, kill -9s it at
 * random moments, restarts it on the same SQLite file, and after every restart checks that
 * every write the client saw acknowledged is there, `PRAGMA integrity_check` says ok, the
 * invariants hold (realtime-server/reliability/invariants.ts), keyed dispatches that were in
 * doubt at the kill are neither lost nor doubled by their retry, and no e-mail was delivered
 * more often than it was claimed for sending. At the end the outbox is drained and every
 * message must have been delivered (none lost), duplicates only where a send was cut off
 * by a kill (the documented at-least-once window of SMTP; RELIABILITY.md).
 *
 *   npm run test:crash                       50 cycles, then the 3-minute reconnect test
 *   npm run test:crash -- --cycles 200 --seed 42 --no-reconnect
 *
 * The loop itself lives in realtime-server/reliability/crash/ (a state machine in plan.ts, its
 * steps in crashLoop.ts), where the 5-cycle test of `npm test` runs it too.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCrashLoop } from '../realtime-server/reliability/crash/crashLoop';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  if (process.argv.includes('--help')) {
    console.log('Usage: npm run test:crash [-- --cycles 50] [--seed N] [--workers 4] [--no-reconnect]');
    return;
  }
  const figures = await runCrashLoop({ cycles: Number(arg('cycles') ?? 50), seed: arg('seed') ? Number(arg('seed')) : undefined, workers: arg('workers') ? Number(arg('workers')) : undefined });
  let failed = figures.violations.length > 0;
  if (!process.argv.includes('--no-reconnect')) {
    // The long reconnect case (3 minutes offline) is a timed wait: it runs here, not in npm test.
    console.log('[crash] the 3-minute reconnect test (LONG_TESTS=1) ...');
    const vitest = spawn(path.join(root, 'node_modules', '.bin', 'vitest'), ['run', 'web/src/realtime/liveCache.test.ts', '-t', '3 minutes'], {
      cwd: root, stdio: 'inherit', env: { ...process.env, LONG_TESTS: '1' },
    });
    const code = await new Promise<number>((resolve) => vitest.once('exit', (c) => resolve(c ?? 1)));
    if (code !== 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
