// The server the browser tests run against: the built app on a fresh SQLite file with demo data,
// no geocoder and no tiles (there is no internet here; the app must degrade gracefully).
import fs from 'node:fs';
import path from 'node:path';

const port = process.env.E2E_PORT ?? '4321';
// One folder per port, so several runs (different E2E_PORT, STATIC_DIR) can go side by side.
const dir = path.resolve(`.tmp/e2e-${port}`);
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
Object.assign(process.env, {
  PORT: port,
  HOST: '127.0.0.1',
  DATABASE_URL: path.join(dir, 'e2e.sqlite'),
  GEOCODER_URL: 'off',
  TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
  SEED: 'demo',
  // The Reports screen draws from it; past calls are closed, so the live boards start empty as before.
  // A week (about 280 calls) keeps every full case list a few pages long without a month's weight on
  // each spec's page loads; E2E_DEMO_HISTORY_DAYS=30 runs as `npm start` does, 0 without history.
  DEMO_HISTORY_DAYS: process.env.E2E_DEMO_HISTORY_DAYS ?? '7',
  LOG_LEVEL: 'warn',
  DRAIN_SECONDS: '0',
});
delete process.env.SMTP_URL;
delete process.env.REDIS_URL; // one node: never a cluster shared with other runs
await import('../realtime-server/main');
