import os from 'node:os';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4321);

/**
 * Browser tests: Debian's Chromium against the built app served by the real server on a fresh
 * database, one server per worker (web/e2e/fixtures.ts) and a worker per core (E2E_WORKERS
 * to choose). A spec file runs on one worker, its tests in order.
 */
export default defineConfig({
  testDir: 'web/e2e',
  outputDir: `.tmp/e2e-results-${port}`,
  fullyParallel: false,
  // A worker per core. A worker mostly waits (for its server, for the page's timers and polls), so two
  // workers on this 2-core machine are faster than one: six spec files (55 tests) took 247 s on two
  // and 339 s on one, run back to back (27 Nov). An earlier "one is faster" compared runs of 92 and 179 tests.
  workers: Number(process.env.E2E_WORKERS ?? Math.max(1, os.availableParallelism())),
  // Ceilings, not waits: a passing test takes what it needs. Two workers, their servers and the
  // browser share the cores, and a loaded 2-core machine needs seconds for a cold page load.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
    },
    screenshot: 'only-on-failure',
  },
});
