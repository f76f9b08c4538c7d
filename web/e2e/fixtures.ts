import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { test as base } from '@playwright/test';
import { closeOpenCalls, trackRequests } from './helpers';

// Every spec imports `test` and `expect` from here: the same as @playwright/test's, except that each
// worker runs its own server on its own fresh SQLite file (scripts/e2eServer.ts) and its pages talk to
// it. Workers run spec files side by side, so no spec may rely on what another left behind: each makes
// the data it looks at (through the API) and frees what it takes.
export * from '@playwright/test';

/** The first worker's port; worker n serves on basePort + n (the spec-owned servers sit at +50 and above). */
export const basePort = Number(process.env.E2E_PORT ?? 4321);

async function startServer(port: number): Promise<ChildProcess> {
  // Another run's server on this port would answer the health check below in place of ours.
  if (await fetch(`http://127.0.0.1:${port}/api/health`).then(() => true, () => false)) {
    throw new Error(`port ${port} is in use: another e2e run? (E2E_PORT chooses the first worker's port)`);
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/e2eServer.ts'], {
    env: { ...process.env, E2E_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let gone = false;
  const exited = once(child, 'exit').then(([code]) => {
    gone = true;
    throw new Error(`the e2e server on port ${port} exited (${code}) before it answered`);
  });
  // Up when its health answers: it has migrated and seeded the demo data by then.
  const up = (async () => {
    while (!gone) {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
      if (res?.status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  await Promise.race([up, exited]);
  exited.catch(() => {}); // it exits at teardown, as asked
  return child;
}

/** Registers a clean-up to run after the test, pass or fail (see the `defer` fixture). */
export type Defer = (cleanUp: () => Promise<unknown>) => void;

export const test = base.extend<{ defer: Defer }, { server: { port: number; url: string } }>({
  // parallelIndex, not workerIndex: a worker started again after a failure takes the same slot, so the
  // ports stay within basePort..basePort+workers-1; the old worker's server is gone by then.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads which fixtures a fixture needs from this destructuring; it needs none
  server: [async ({}, use, workerInfo) => {
    const port = basePort + workerInfo.parallelIndex;
    const child = await startServer(port);
    await use({ port, url: `http://127.0.0.1:${port}` });
    const exit = once(child, 'exit');
    child.kill('SIGTERM');
    await exit;
  }, { scope: 'worker', auto: true, timeout: 180_000 }],
  baseURL: async ({ server }, use) => { await use(server.url); },
  /**
   * Clean-ups that run after the test, newest first, whether it passed or not: in the fixture's teardown, with
   * time of its own after a timeout. A `finally` in the test does neither: after a timeout its first request
   * fails at once, and the error it throws replaces the test's own, so a test stuck on a button read as a
   * request that never answered. A clean-up's own failure is reported beside the test's error, not over it.
   */
  defer: async ({ page }, use) => {
    void page; // set up first, so that it is still open while the clean-ups use its requests
    const cleanUps: (() => Promise<unknown>)[] = [];
    await use((cleanUp) => { cleanUps.push(cleanUp); });
    const errors: unknown[] = [];
    for (const cleanUp of cleanUps.reverse()) await cleanUp().catch((err: unknown) => { errors.push(err); });
    if (errors.length) throw errors[0];
  },
});

/**
 * For a spec whose tests make calls on the worker's shared server: each test starts and leaves with no
 * open call, so no ambulance stays busy for the next test or spec; each page's requests are counted for
 * settled() from its first load.
 */
export function noOpenCallsAroundEachTest(): void {
  test.beforeEach(async ({ page }) => {
    trackRequests(page);
    await closeOpenCalls(page);
  });
  test.afterEach(async ({ page }) => { await closeOpenCalls(page); });
}
