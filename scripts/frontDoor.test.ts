import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module (the front door runs before dependencies, TypeScript included, exist)
import { expectedPackages, installedCount, packagesWithInstallScripts, progressLine, readyLines } from './frontDoor.mjs';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

function project(lockPackages: Record<string, object>, installed: string[]) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-frontdoor-'));
  dirs.push(root);
  fs.writeFileSync(path.join(root, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'x' }, ...lockPackages } }));
  for (const where of installed) {
    fs.mkdirSync(path.join(root, where), { recursive: true });
    fs.writeFileSync(path.join(root, where, 'package.json'), '{}');
  }
  return root;
}

describe('install progress (npm start on a fresh clone)', () => {
  it('counts the lock file packages this machine gets and how many are on disk', () => {
    const root = project({
      'node_modules/koa': {},
      'node_modules/@mui/material': {},
      'node_modules/a/node_modules/b': {},
      'node_modules/@esbuild/other-os': { optional: true, os: ['no-such-os'] },
      'node_modules/@esbuild/this-os': { optional: true, os: [process.platform], cpu: [process.arch] },
      'node_modules/linked': { link: true },
      'node_modules/better-sqlite3': { hasInstallScript: true },
      'node_modules/fsevents': { optional: true, hasInstallScript: true },
    }, ['node_modules/koa', 'node_modules/a/node_modules/b', 'node_modules/@esbuild/this-os']);
    const expected = expectedPackages(root);
    expect(expected.sort()).toEqual(['node_modules/@mui/material', 'node_modules/a/node_modules/b', 'node_modules/better-sqlite3', 'node_modules/koa']);
    expect(installedCount(root, expected)).toBe(2);
    expect(packagesWithInstallScripts(root)).toEqual(['better-sqlite3']);
  });

  it('says how far it is, never 100% before npm is done, and copes with no lock file', () => {
    expect(progressLine(2, 4, 65_000)).toBe('2 of 4 packages (50%), 1 min 05 s');
    expect(progressLine(4, 4, 9_000)).toBe('4 of 4 packages (99%), 9 s');
    expect(progressLine(4, 4, 70_000, ['better-sqlite3'])).toBe('4 of 4 packages (99%), 1 min 10 s; building native modules (better-sqlite3), about a minute');
    expect(progressLine(3, 4, 70_000, ['better-sqlite3'])).toBe('3 of 4 packages (75%), 1 min 10 s');
    expect(progressLine(7, 0, 3_000)).toBe('7 packages so far, 3 s');
    expect(expectedPackages(path.join(os.tmpdir(), 'no-such-project-here'))).toEqual([]);
  });
});

describe('the ready lines', () => {
  it('name the address and the demo sign-in, or say the demo accounts are not there', () => {
    const demo = [
      { email: 'admin@lifeline.test', name: 'Admin', phone: '5550100', role: 'admin' },
      { email: 'operator@lifeline.test', name: 'Operator', phone: '5550101', role: 'operator' },
    ];
    expect(readyLines({ url: 'http://127.0.0.1:3000', demo })).toEqual([
      'Lifeline is ready: open http://127.0.0.1:3000 in a browser (Ctrl-C stops it).',
      'Sign in as the demo dispatcher: e-mail operator@lifeline.test, username Operator, phone 5550101.',
      'Sign in as the demo admin: e-mail admin@lifeline.test, username Admin, phone 5550100.',
    ]);
    expect(readyLines({ url: 'http://x', demo: [] })[1]).toMatch(/demo accounts are not in it/);
  });
});
