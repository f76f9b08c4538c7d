import knex, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knexConfig } from './connection';
import { preparedFirst } from './preparedRead';

describe('preparedFirst on SQLite', () => {
  let db: Knex;
  beforeAll(async () => {
    db = knex(knexConfig(':memory:'));
    await db.schema.createTable('t', (t) => { t.integer('id').primary(); t.string('name'); });
    await db('t').insert([{ id: 1, name: 'one' }, { id: 2, name: 'two' }]);
  });
  afterAll(() => db.destroy());

  it('answers the first row or undefined, preparing the statement once per connection', async () => {
    const conn = await db.client.acquireConnection();
    let prepared = 0;
    const prepare = conn.prepare.bind(conn);
    conn.prepare = (sql: string) => { prepared++; return prepare(sql); };
    await db.client.releaseConnection(conn);
    try {
      const sql = 'select name from t where id = ? limit 1';
      expect(await preparedFirst(db, sql, [2])).toEqual({ name: 'two' });
      expect(await preparedFirst(db, sql, [1])).toEqual({ name: 'one' });
      expect(await preparedFirst(db, sql, [3])).toBeUndefined();
      expect(prepared).toBe(1);
    } finally {
      conn.prepare = prepare;
    }
  });

  it('is announced like every Knex statement', async () => {
    const heard: string[] = [];
    const on = (q: { sql: string }) => heard.push(q.sql);
    db.on('query', on);
    await preparedFirst(db, 'select name from t where id = ?', [1]);
    db.off('query', on);
    expect(heard).toEqual(['select name from t where id = ?']);
  });

  it("inside a transaction reads the transaction's own writes through Knex", async () => {
    await db.transaction(async (trx) => {
      await trx('t').insert({ id: 9, name: 'nine' });
      expect(await preparedFirst(trx, 'select name from t where id = ?', [9])).toEqual({ name: 'nine' });
      await trx.rollback();
    }).catch(() => undefined);
    expect(await preparedFirst(db, 'select name from t where id = ?', [9])).toBeUndefined();
  });
});
