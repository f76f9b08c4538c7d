import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshPostgresUrl, onPostgresPass } from '../realtime-server/testing/testEngine';
import { openDatabase } from './connection';
import { PlateTakenError, ambulanceRepository } from './repositories/ambulanceRepository';

/**
 * What the outbox-secrets and plate-key migrations do to rows written before them: a database
 * is migrated to just before them, filled as the older code left it, then migrated up (and
 * back down). On the PostgreSQL pass it runs on a fresh schema.
 */
const SECRETS = '20261123000200_outbox_secrets.ts';
const PLATE_KEY = '20261123000300_plate_key.ts';
const TOKEN_A = 'A'.repeat(20) + '_viewer-token_' + 'a'.repeat(9);
const TOKEN_B = 'B'.repeat(20) + '_driver-token_' + 'b'.repeat(9);
const nameOf = (m: unknown) => (typeof m === 'string' ? m : ((m as { name?: string; file?: string }).name ?? (m as { file: string }).file));

let db: Knex;
let url: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-backfill-'));
beforeAll(async () => {
  url = onPostgresPass() ? await freshPostgresUrl('t') : path.join(dir, 'db.sqlite');
  db = openDatabase(url);
  for (;;) {
    const [, pending] = await db.migrate.list();
    if (pending.length === 0 || nameOf(pending[0]) >= SECRETS) break;
    await db.migrate.up();
  }
});
afterAll(async () => {
  await db?.destroy();
  if (onPostgresPass()) await dropSchema(url);
  fs.rmSync(dir, { recursive: true, force: true });
});

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const message = (kind: string, status: string, text: string, links: string[], createdMinutesAgo = 1) => ({
  kind, to_address: 'x@example.com', subject: kind, body_text: text, links: JSON.stringify(links), status, attempts: status === 'queued' ? 0 : 1,
  next_attempt_at: minutesAgo(createdMinutesAgo), case_id: kind === 'signin-code' ? null : 'c0ffee00-0000-4000-8000-000000000000',
  created_at: minutesAgo(createdMinutesAgo), sent_at: status === 'sent' ? minutesAgo(createdMinutesAgo) : null,
});
const codeText = (code: string) => `Hello Admin,\n\nYour Lifeline sign-in code is:\n\n    ${code}\n\nEnter it on the sign-in page within 10 minutes; it works once.`;
const link = (kind: string, token: string) => `http://lifeline.test/${kind}/1?t=${token}`;

describe('outbox secrets', () => {
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    const insert = async (name: string, row: ReturnType<typeof message>) => {
      const [r] = await db('outbox').insert(row).returning('id');
      ids[name] = typeof r === 'object' ? r.id : r;
    };
    await insert('queuedLinks', message('tracking-driver', 'queued', `Open: ${link('driver', TOKEN_B)}\nTrack: ${link('track', TOKEN_A)}\n`, [link('driver', TOKEN_B), link('track', TOKEN_A)]));
    await insert('sentLinks', message('tracking-patient', 'sent', `Watch: ${link('track', TOKEN_A)}\n`, [link('track', TOKEN_A)]));
    await insert('failedLinks', message('tracking-patient', 'failed', `Watch: ${link('track', TOKEN_B)}\n`, [link('track', TOKEN_B)]));
    await insert('queuedCode', message('signin-code', 'queued', codeText('123456'), [], 3));
    await insert('sentCode', message('signin-code', 'sent', codeText('654321'), []));
    await insert('plain', message('share-location', 'queued', 'Open http://lifeline.test/location/c0ffee00', ['http://lifeline.test/location/c0ffee00']));
    await db.migrate.up({ name: SECRETS });
  });
  const row = (name: string) => db('outbox').where({ id: ids[name] }).first();

  it('sent and failed messages lose their tokens and codes at once', async () => {
    expect(await row('sentLinks')).toMatchObject({ body_text: 'Watch: http://lifeline.test/track/1?t=…\n', links: JSON.stringify(['http://lifeline.test/track/1?t=…']), body_redacted: null });
    expect(await row('failedLinks')).toMatchObject({ body_text: 'Watch: http://lifeline.test/track/1?t=…\n', body_redacted: null });
    expect(await row('sentCode')).toMatchObject({ body_text: codeText('…'), body_redacted: null });
  });

  it('queued messages keep their secrets, with the copy they are kept as once sent beside them', async () => {
    expect(await row('queuedLinks')).toMatchObject({
      body_text: `Open: ${link('driver', TOKEN_B)}\nTrack: ${link('track', TOKEN_A)}\n`,
      body_redacted: `Open: ${link('driver', '…')}\nTrack: ${link('track', '…')}\n`,
      links_redacted: JSON.stringify([link('driver', '…'), link('track', '…')]),
      secrets_expire_at: null,
    });
    const code = await row('queuedCode');
    expect(code).toMatchObject({ body_text: codeText('123456'), body_redacted: codeText('…'), links_redacted: '[]' });
    // A code is valid for 10 minutes from when its mail was queued.
    expect(Date.parse(code.secrets_expire_at) - Date.parse(code.created_at)).toBe(10 * 60_000);
    expect(await row('plain')).toMatchObject({ body_redacted: null, links_redacted: null, secrets_expire_at: null });
  });
});

describe('plate key', () => {
  const plates = ['TS09 EA 1003', '\u0422S09 EA 1003', 'ts09-ea-1004', 'KA01 AB 0001'];
  beforeAll(async () => {
    const now = new Date().toISOString();
    // As the older code keyed them: the Cyrillic twin had a key of its own.
    for (const p of plates) await db('ambulances').insert({ license_plate: p, plate_key: p.toUpperCase().replace(/[\s-]+/g, ''), status: 'available', version: 1, created_at: now, updated_at: now });
    await db.migrate.up({ name: PLATE_KEY });
  });

  it('keys every ambulance again by the look-alike key; of two look-alikes already in the fleet the older holds it', async () => {
    const rows = await db('ambulances').orderBy('id').select('id', 'license_plate', 'plate_key');
    expect(rows.map((r) => r.license_plate)).toEqual(plates);
    expect(rows.map((r) => r.plate_key)).toEqual(['TSO9EAlOO3', `TSO9EAlOO3#${rows[1].id}`, 'TSO9EAlOO4', 'KAOlABOOOl']);
  });

  it('a new look-alike of either is refused by the UNIQUE key', async () => {
    await expect(ambulanceRepository.insert(db, { license_plate: 'TS09 ЕА 1003', status: 'available' })).rejects.toBeInstanceOf(PlateTakenError);
    await expect(ambulanceRepository.insert(db, { license_plate: 'TS09 EA 1004', status: 'available' })).rejects.toBeInstanceOf(PlateTakenError);
  });

  it('steps down to the old keys and up again', async () => {
    await db.migrate.down({ name: PLATE_KEY });
    expect(await db('ambulances').orderBy('id').pluck('plate_key')).toEqual(['TS09EA1003', '\u0422S09EA1003', 'TS09EA1004', 'KA01AB0001']);
    await db.migrate.up({ name: PLATE_KEY });
    expect((await db('ambulances').orderBy('id').pluck('plate_key'))[0]).toBe('TSO9EAlOO3');
  });

  it('a key longer than its plate fits (on PostgreSQL the column is text)', async () => {
    const id = await ambulanceRepository.insert(db, { license_plate: '\uFDFA'.repeat(20), status: 'available' });
    // Read straight from the table: the repository's reads join tables of later migrations than this point.
    expect((await db('ambulances').where({ id }).first()).plate_key.length).toBeGreaterThan(20);
  });
});
