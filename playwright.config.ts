import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4321);

/** Browser tests: Debian's Chromium against the built app served by the real server on a fresh database. */
export default defineConfig({
  testDir: 'web/e2e',
  outputDir: `.tmp/e2e-results-${port}`,
  fullyParallel: false,
  workers: 1,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
    },
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node_modules/.bin/tsx scripts/e2eServer.ts',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
