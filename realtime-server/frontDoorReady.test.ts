import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FrontDoorReady } from './main';
import { onPostgresPass } from './testing/testEngine';

const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-frontdoor-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * `npm start` (scripts/bootstrap.mjs) prints "open this address, sign in as" from the message
 * the real server process sends it over IPC once it serves. The server's own output stays JSON.
 */
function runServer(env: Record<string, string>) {
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['realtime-server/main.ts'], {
    cwd: root,
    env: { ...process.env, REDIS_URL: '', PORT: '0', HOST: '127.0.0.1', GEOCODER_URL: 'off', STATIC_DIR: path.join(dir, 'web'), ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const out: string[] = [];
  child.stdout!.on('data', (c: Buffer) => out.push(...c.toString('utf8').split('\n').filter(Boolean)));
  child.stderr!.on('data', (c: Buffer) => out.push(...c.toString('utf8').split('\n').filter(Boolean)));
  const ready = new Promise<FrontDoorReady>((resolve, reject) => {
    child.on('message', (m) => resolve(m as FrontDoorReady));
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${out.join('\n')}`)));
  });
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    await exited;
  };
  return { ready, out, stop };
}

describe.skipIf(onPostgresPass())('the server tells npm start when it is ready', () => {
  it('its address (the real port) and the demo accounts that sign in; every line it writes is JSON', async () => {
    const s = runServer({ DATABASE_URL: path.join(dir, 'demo.sqlite') });
    try {
      const ready = await s.ready;
      expect(ready.type).toBe('lifeline:ready');
      expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d{2,5}$/);
      expect((await fetch(`${ready.url}/api/health`)).status).toBe(200);
      expect(ready.demo.map((u) => [u.role, u.email, u.name, u.phone]).sort()).toEqual([
        ['admin', 'admin@lifeline.test', 'Admin', '5550100'],
        ['operator', 'operator@lifeline.test', 'Operator', '5550101'],
      ]);
    } finally {
      await s.stop();
    }
    expect(s.out.length).toBeGreaterThan(0);
    for (const line of s.out) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it('without the demo data (SEED=none) it names no account', async () => {
    const s = runServer({ DATABASE_URL: path.join(dir, 'empty.sqlite'), SEED: 'none' });
    try {
      expect((await s.ready).demo).toEqual([]);
    } finally {
      await s.stop();
    }
  });
});
