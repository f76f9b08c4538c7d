import os from 'node:os';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4321);

/**
 * Browser tests: Debian's Chromium against the built app served by the real server on a fresh
 * database, one server per worker (web/e2e/fixtures.ts) and a worker per two cores (E2E_WORKERS
 * to choose). A spec file runs on one worker, its tests in order.
 */
export default defineConfig({
  testDir: 'web/e2e',
  outputDir: `.tmp/e2e-results-${port}`,
  fullyParallel: false,
  // A worker keeps two processes busy (its server and its Chromium): one worker per two cores. Two
  // workers on this 2-core machine took 1,354 s in CI, one worker 903 s in an earlier run of nearly the same specs.
  workers: Number(process.env.E2E_WORKERS ?? Math.max(1, Math.floor(os.availableParallelism() / 2))),
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
