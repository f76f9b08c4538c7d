import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import knex, { type Knex } from 'knex';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { knexConfig } from '../../../db/connection';
import { requestLogger } from './errors';

/**
 * A request that waits (here for the one SQLite connection, held by another request's transaction)
 * says so while it waits, with the pool's state, and again when it ends; a quick one logs nothing
 * above debug. The threshold is small here and nothing is timed: the holder lets go only once the
 * waiting request has been reported.
 */

const lines: Record<string, unknown>[] = [];
const log = pino({ level: 'warn' }, new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
let db: Knex;
let server: http.Server;
let base: string;
let release: () => void = () => {};
let holding: Promise<void>;
let held: () => void;

beforeAll(async () => {
  db = knex(knexConfig(':memory:'));
  await db.schema.createTable('t', (t) => t.integer('n'));
  const app = new Koa();
  app.use(requestLogger(log, db, 50));
  app.use(async (ctx) => {
    if (ctx.path === '/hold') {
      await db.transaction(async (trx) => {
        await trx('t').insert({ n: 1 });
        held();
        await new Promise<void>((resolve) => { release = resolve; });
      });
      ctx.body = { ok: true };
    } else {
      ctx.body = { rows: (await db('t').count({ n: '*' }))[0].n };
    }
  });
  server = http.createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  release();
  await new Promise((resolve) => server.close(resolve));
  await db.destroy();
});

it('a quick request logs nothing at warn', async () => {
  expect((await fetch(`${base}/read`)).status).toBe(200);
  expect(lines).toEqual([]);
});

it('a request waiting for the held connection is reported while it waits, then when it ends', async () => {
  holding = new Promise<void>((resolve) => { held = resolve; });
  const holder = fetch(`${base}/hold`);
  await holding;
  const reader = fetch(`${base}/read`);
  await expect.poll(() => lines.find((l) => l.msg === 'request still running' && l.path === '/read'), { timeout: 10_000 })
    .toMatchObject({ method: 'GET', pool: { used: 1, free: 0, pending: 1 } });
  release();
  expect((await reader).status).toBe(200);
  expect((await holder).status).toBe(200);
  await expect.poll(() => lines.find((l) => l.msg === 'slow request ended' && l.path === '/read')).toMatchObject({ status: 200 });
  expect(lines.find((l) => l.msg === 'slow request ended' && l.path === '/hold')).toMatchObject({ status: 200 });
});
