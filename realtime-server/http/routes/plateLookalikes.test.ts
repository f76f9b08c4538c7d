import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { ambulanceRow, expectStatus } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';

/**
 * Look-alike plates are one ambulance: a plate that reads the same as one already in the
 * fleet (another script's letters, fullwidth forms, other case, other separators) is refused
 * with the same 409 as an exact duplicate, on create, on rename, and when two admins create
 * look-alikes at the same moment (the UNIQUE plate key decides; PostgreSQL runs both at once).
 * The seed's ambulance 3 is "TS09 EA 1003".
 */
const s = useTestServer();
let admin: string;
beforeAll(async () => {
  admin = await s.signIn('admin');
});

const create = (license_plate: string) => s.api('POST', '/api/ambulances', { token: admin, body: { license_plate } });
const rename = (id: number, license_plate: string) => s.api('PUT', `/api/ambulances/${id}`, { token: admin, body: { license_plate } });
const TAKEN = 'An ambulance with license plate TS09 EA 1003 already exists';

describe('a plate that looks like one in the fleet', () => {
  it.each([
    ['Cyrillic Т', '\u0422S09 EA 1003'],
    ['Cyrillic Т, Е, А', '\u0422S09 \u0415\u0410 1003'],
    ['Greek Τ, Ε, Α', '\u03A4S09 \u0395\u0391 1003'],
    ['fullwidth forms', 'ＴＳ０９ ＥＡ １００３'],
    ['lower case', 'ts09 ea 1003'],
    ['Cyrillic lower case т', '\u0442s09 ea 1003'],
    ['dashes for spaces', 'TS09-EA-1003'],
    ['no separators', 'TS09EA1003'],
    ['letter O for the digit 0', 'TSO9 EA 1OO3'],
    ['mathematical bold letters and digits', '𝐓𝐒𝟎𝟗 𝐄𝐀 𝟏𝟎𝟎𝟑'],
  ])('is refused on create with 409 and nothing is written: %s', async (_what, plate) => {
    await expectNoWrite(s.ctx.db, async () => expectError(await create(plate), 409, TAKEN));
  });

  it('is refused when another ambulance is renamed to it; renaming an ambulance to a look-alike of its own plate is allowed', async () => {
    const before = await ambulanceRow(s, 4);
    await expectNoWrite(s.ctx.db, async () => expectError(await rename(4, '\u0422S09 EA 1003'), 409, TAKEN));
    expect(await ambulanceRow(s, 4)).toEqual(before);
    const own = expectStatus(await rename(3, 'TS09-EA-1003'), 200, 'own plate, other separators');
    expect(own.body.ambulance.license_plate).toBe('TS09-EA-1003');
    expectStatus(await rename(3, 'TS09 EA 1003'), 200, 'back');
  });

  it('an invisible letter (a Hangul filler) does not make a plate new: refused as not a plate', async () => {
    await expectNoWrite(s.ctx.db, async () => expectError(await create('TS09 EA 1003\u3164'), 400, 'license_plate: letters, digits, spaces and dashes only'));
  });

  it('a plate that only shares some letters is a new ambulance, shown as typed', async () => {
    const res = expectStatus(await create('\u0422S09 EA 1103'), 201, 'another plate');
    expect(res.body.ambulance.license_plate).toBe('\u0422S09 EA 1103');
    // ...and is itself protected against its Latin twin.
    expectError(await create('TS09 EA 1103'), 409, 'An ambulance with license plate \u0422S09 EA 1103 already exists');
  });
});

describe('concurrent creates of look-alikes', () => {
  it('exactly one wins each round; the others get the same 409, never a 500', async () => {
    const variants = (n: number) => [`TS7${n} AB 4321`, `\u0422S7${n} \u0410B 4321`, `ts7${n}-ab-4321`, `ＴＳ７${String.fromCharCode(0xff10 + n)} ＡＢ ４３２１`];
    for (let round = 0; round < 8; round++) {
      const answers = await Promise.all(variants(round).map((p) => create(p)));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409]);
      const winner = answers.find((a) => a.status === 201)!.body.ambulance.license_plate;
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body).toEqual({ error: `An ambulance with license plate ${winner} already exists` });
      expect(await s.ctx.db('ambulances').where('license_plate', 'in', variants(round)).count({ n: '*' }).first()).toMatchObject({ n: 1 });
    }
  });

  it('two renames to look-alikes of one new plate at once: one wins', async () => {
    for (let round = 0; round < 4; round++) {
      const plate = `KA0${round} MM 7777`;
      const answers = await Promise.all([rename(5, plate), rename(6, plate.replace('K', '\u041A').replace('A', '\u0410'))]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error).toMatch(/^An ambulance with license plate .+ already exists$/u);
    }
  });
});
