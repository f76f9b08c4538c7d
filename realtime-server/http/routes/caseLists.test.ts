import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { searchTextOf } from '../../../db/repositories/caseSearchText';
import { BOARD_ENDED_MAX, CASE_PAGE_DEFAULT } from '../../contract/caseLists';
import { expectStatus, plateOf, rememberLocationLink, rowCount, shareLocation, trackingTokens, updateCase } from '../../testing/dispatchHelpers';
import { manualClock } from '../../testing/manualClock';
import { signedInStaff, type TestServer, useTestServer } from '../../testing/testServer';

/**
 * The case lists of issue 24: the live board (bare GET /api/cases) and history (scope=all),
 * on whichever engine the run uses (TEST_ENGINE, testEngine.ts).
 */

interface NewCase {
  status?: 'active' | 'pending';
  priority?: 1 | 2 | 3 | 4;
  ambulance?: number;
  name?: string;
  email?: string;
  description?: string;
  address?: string;
  callReceivedAt?: string;
}

async function createCase(s: TestServer, token: string, c: NewCase = {}): Promise<string> {
  const res = await s.api('POST', '/api/cases', {
    token,
    body: {
      patientName: c.name ?? 'Pat Doe', email: c.email ?? 'pat@example.com', description: c.description ?? 'Fall at home', caseType: 'Other',
      status: c.status ?? 'active', priority: c.priority ?? 3,
      ...(c.ambulance ? { ambulance_id: c.ambulance } : {}),
      ...(c.callReceivedAt ? { call_received_at: c.callReceivedAt } : {}),
      ...(c.address ? { intake_location: { latitude: 17.4, longitude: 78.45, address: c.address, source: 'address' } } : {}),
    },
  });
  return expectStatus(rememberLocationLink(res), 201, 'create').body.case.id;
}

const close = async (s: TestServer, token: string, id: string) => expectStatus(await updateCase(s, token, id, { status: 'closed' }), 200, 'close');
const setCreated = (s: TestServer, id: string, iso: string) => s.ctx.db('cases').where({ id }).update({ created_at: iso });
const ids = (body: { cases: { id: string }[] }) => body.cases.map((c) => c.id);
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

describe('the board: bare GET /api/cases', () => {
  const clock = manualClock();
  const s = useTestServer({ clock });
  let operator: string;
  beforeAll(async () => { operator = await s.signIn('operator'); });

  it('answers open calls in board order, then the recently ended newest first, with counts', async () => {
    const p3old = await createCase(s, operator, { priority: 3, callReceivedAt: minutesAgo(30) });
    const p1active = await createCase(s, operator, { priority: 1, ambulance: 1, callReceivedAt: minutesAgo(20) });
    const p1pending = await createCase(s, operator, { priority: 1, status: 'pending', callReceivedAt: minutesAgo(5) });
    const p1pendingOld = await createCase(s, operator, { priority: 1, status: 'pending', callReceivedAt: minutesAgo(15) });
    const p2 = await createCase(s, operator, { priority: 2, status: 'pending', callReceivedAt: minutesAgo(1) });
    const endedFirst = await createCase(s, operator, { priority: 1 });
    const endedLater = await createCase(s, operator, { priority: 4 });
    await close(s, operator, endedFirst);
    await close(s, operator, endedLater);
    await s.ctx.db('cases').where({ id: endedFirst }).update({ closed_at: minutesAgo(10) });
    await s.ctx.db('cases').where({ id: endedLater }).update({ closed_at: minutesAgo(2) });
    // Ended long ago: history, not the board (but still in the total).
    const old = await createCase(s, operator);
    await close(s, operator, old);
    await s.ctx.db('cases').where({ id: old }).update({ closed_at: minutesAgo(13 * 60) });

    const res = await s.api('GET', '/api/cases', { token: operator });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['cases', 'counts']);
    expect(ids(res.body)).toEqual([p1pendingOld, p1pending, p1active, p2, p3old, endedLater, endedFirst]);
    expect(res.body.counts).toEqual({ active: 2, pending: 3, total: 8 });
    expect(res.body.cases[2]).toMatchObject({ ambulance_id: 1, license_plate: plateOf(1) });
  });

  it('drops an ended call once BOARD_RECENT_HOURS have passed on the server clock', async () => {
    const id = await createCase(s, operator);
    await close(s, operator, id);
    await s.ctx.db('cases').where({ id }).update({ closed_at: new Date(clock.now() - 1000).toISOString() });
    expect(ids((await s.api('GET', '/api/cases', { token: operator })).body)).toContain(id);
    await clock.advance(12 * 3600_000 - 2000);
    expect(ids((await s.api('GET', '/api/cases', { token: operator })).body)).toContain(id);
    await clock.advance(2000);
    expect(ids((await s.api('GET', '/api/cases', { token: operator })).body)).not.toContain(id);
  });

  it('carries no more than the latest BOARD_ENDED_MAX ended calls, however busy the last hours were', async () => {
    const base = clock.now();
    const rows = Array.from({ length: BOARD_ENDED_MAX + 20 }, (_, i) => {
      const at = new Date(base - (i + 1) * 60_000).toISOString();
      const row = {
        id: randomUUID(), description: 'Busy hour', status: 'closed', patient_name: `Busy ${i}`, patient_email: `busy${i}@example.com`,
        created_at: at, updated_at: at, closed_at: at, priority: 3, call_received_at: at, version: 1,
      };
      return { ...row, search_text: searchTextOf(row) };
    });
    await s.ctx.db('cases').insert(rows);
    const res = await s.api('GET', '/api/cases', { token: operator });
    const ended = res.body.cases.filter((c: { status: string }) => c.status === 'closed' || c.status === 'resolved');
    expect(ended).toHaveLength(BOARD_ENDED_MAX);
    expect(ids({ cases: ended })).toEqual(rows.slice(0, BOARD_ENDED_MAX).map((r) => r.id));
    await s.ctx.db('cases').whereIn('id', rows.map((r) => r.id)).delete();
  });

  it('takes no history parameters without scope=all, and refuses another scope', async () => {
    expect((await s.api('GET', '/api/cases?limit=5', { token: operator })).body).toEqual({ error: expect.stringMatching(/^limit: /) });
    const res = await s.api('GET', '/api/cases?scope=open', { token: operator });
    expect(res).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^scope: /) } });
  });
});

describe('history: GET /api/cases?scope=all', () => {
  const s = useTestServer();
  let operator: string;
  /** Made oldest first: c[0] is the oldest. */
  const c: string[] = [];
  beforeAll(async () => {
    operator = await s.signIn('operator');
    for (let i = 0; i < 12; i++) {
      const id = await createCase(s, operator, { name: `Batch ${i}`, priority: ((i % 4) + 1) as 1 | 2 | 3 | 4 });
      await setCreated(s, id, `2026-01-${String(i + 1).padStart(2, '0')}T10:00:00.000Z`);
      c.push(id);
    }
    await close(s, operator, c[0]);
    await close(s, operator, c[1]);
  });
  const history = async (qs: string) => s.api('GET', `/api/cases?scope=all&${qs}`, { token: operator });
  const page = async (qs: string) => expectStatus(await history(qs), 200, qs).body;

  it('pages newest first by default, with an exact total', async () => {
    const body = await page('limit=5');
    expect(Object.keys(body).sort()).toEqual(['cases', 'next_cursor', 'prev_cursor', 'total', 'total_exact']);
    expect(ids(body)).toEqual([c[11], c[10], c[9], c[8], c[7]]);
    expect(body).toMatchObject({ total: 12, total_exact: true, prev_cursor: null });
    expect(body.next_cursor).toEqual(expect.any(String));
    expect((await page('')).cases).toHaveLength(Math.min(12, CASE_PAGE_DEFAULT));
  });

  it('walks forward and back by cursor in either order', async () => {
    const p1 = await page('limit=5&order=asc');
    const p2 = await page(`limit=5&order=asc&cursor=${p1.next_cursor}`);
    const p3 = await page(`limit=5&order=asc&cursor=${p2.next_cursor}`);
    expect([...ids(p1), ...ids(p2), ...ids(p3)]).toEqual(c);
    expect(p3.next_cursor).toBeNull();
    const back = await page(`limit=5&order=asc&cursor=${p3.prev_cursor}`);
    expect(ids(back)).toEqual(ids(p2));
    const first = await page(`limit=5&order=asc&cursor=${back.prev_cursor}`);
    expect(ids(first)).toEqual(ids(p1));
  });

  it('neither repeats nor skips a row while calls are added between pages', async () => {
    const seen: string[] = [];
    let cursor = '';
    let added = 0;
    for (;;) {
      const body = await page(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...ids(body));
      // New calls land at the top, before the cursor of a newest-first walk: it must not show them or shift.
      if (added++ < 3) await createCase(s, operator, { name: 'Added meanwhile' });
      if (!body.next_cursor) break;
      cursor = body.next_cursor;
    }
    expect(seen).toEqual([...c].reverse());
    expect(new Set(seen).size).toBe(seen.length);
    const newestFirst = await page('limit=3');
    expect(newestFirst.total).toBe(15);
  });

  it('filters by status, priority and creation time', async () => {
    expect(new Set(ids(await page('status=closed')))).toEqual(new Set([c[0], c[1]]));
    const p2 = await page('priority=2&from=2026-01-01&to=2026-01-12');
    expect(ids(p2)).toEqual([c[9], c[5], c[1]]);
    expect(p2.total).toBe(3);
    expect(ids(await page('from=2026-01-03&to=2026-01-04&order=asc'))).toEqual([c[2], c[3]]);
    expect(ids(await page('from=2026-01-03T10:00:00Z&to=2026-01-03T10:00:00Z'))).toEqual([c[2]]);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    for (const [qs, field] of [
      ['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=abc', 'limit'], ['order=up', 'order'], ['status=open', 'status'],
      ['priority=5', 'priority'], ['from=yesterday', 'from'], ['to=2026-13-01', 'to'], ['cursor=nonsense', 'cursor'],
    ]) {
      const res = await history(qs);
      expect({ qs, status: res.status, error: res.body.error?.split(':')[0] }).toEqual({ qs, status: 400, error: field });
    }
    expect((await history('limit=100')).status).toBe(200);
    const other = Buffer.from(JSON.stringify(['outbox', 'next', '2026-01-01T00:00:00.000Z', 1])).toString('base64url');
    expect((await history(`cursor=${other}`)).body.error).toMatch(/^cursor: /);
  });
});

describe('history search: q', () => {
  const s = useTestServer();
  let operator: string;
  let admin: string;
  const found = async (q: string) => {
    const res = await s.api('GET', `/api/cases?scope=all&limit=100&q=${encodeURIComponent(q)}`, { token: operator });
    expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
    return new Set(ids(res.body));
  };
  let asa: string, plated: string, addressed: string, percent: string, quoted: string, plain: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
    admin = await s.signIn('admin');
    asa = await createCase(s, operator, { name: 'Åsa Öberg', email: 'asa.oberg@example.se', description: 'Chest pain' });
    plated = await createCase(s, operator, { ambulance: 3, description: 'Road collision' });
    addressed = await createCase(s, operator, { address: '221B Baker Street, London', description: 'Fainted' });
    percent = await createCase(s, operator, { description: 'Burns over 50% of body_area' });
    quoted = await createCase(s, operator, { description: 'Said "help" NEAR the door OR window' });
    plain = await createCase(s, operator, { status: 'pending', description: 'Breathing difficulty' });
  });

  it('finds a case by each SPEC field, case-insensitively, Unicode included', async () => {
    expect(await found('ÅSA')).toEqual(new Set([asa]));
    expect(await found('öBERG')).toEqual(new Set([asa]));
    expect(await found('asa.oberg@EXAMPLE')).toEqual(new Set([asa]));
    expect(await found('chest')).toEqual(new Set([asa]));
    expect(await found('baker street')).toEqual(new Set([addressed]));
    expect(await found(plateOf(3).toLowerCase())).toEqual(new Set([plated]));
    expect(await found('pending')).toEqual(new Set([plain]));
    expect(await found(plated.slice(0, 8))).toEqual(new Set([plated]));
    expect(await found(plated.slice(0, 8).toUpperCase())).toEqual(new Set([plated]));
    expect(await found('no such thing')).toEqual(new Set());
  });

  it('takes LIKE wildcards and FTS operators as plain text', async () => {
    expect(await found('%')).toEqual(new Set([percent]));
    expect(await found('50%')).toEqual(new Set([percent]));
    expect(await found('y_a')).toEqual(new Set([percent]));
    expect(await found('_')).toEqual(new Set([percent]));
    expect(await found('"help" NEAR')).toEqual(new Set([quoted]));
    expect(await found('door OR window')).toEqual(new Set([quoted]));
    expect(await found('help*')).toEqual(new Set());
    expect(await found('"')).toEqual(new Set([quoted]));
    expect(await found('\\')).toEqual(new Set());
  });

  it('searches short text (under a trigram) too, and counts what it finds', async () => {
    const res = await s.api('GET', `/api/cases?scope=all&q=${encodeURIComponent('ås')}`, { token: operator });
    expect(ids(res.body)).toEqual([asa]);
    expect(res.body).toMatchObject({ total: 1, total_exact: true });
  });

  it('follows edits: a new name, a closed status, a new plate on the ambulance', async () => {
    expectStatus(await updateCase(s, operator, plain, { patientName: 'Zoë Quinn' }), 200, 'rename');
    expect(await found('ZOË')).toEqual(new Set([plain]));
    expect(await found('pat doe breathing')).toEqual(new Set());
    await close(s, operator, plain);
    expect(await found('closed')).toEqual(new Set([plain]));
    expectStatus(await s.api('PUT', '/api/ambulances/3', { token: admin, body: { license_plate: 'KA01 ZZ 4242' } }), 200, 'new plate');
    expect(await found('zz 4242')).toEqual(new Set([plated]));
    expect(await found(plateOf(3))).toEqual(new Set());
  });
});

describe('audit and roles of the lists', () => {
  const s = useTestServer();
  const staff = signedInStaff(s);
  const viewedBy = async (userEmail: string) => {
    const user = await s.ctx.db('users').where({ email: userEmail }).first();
    return s.ctx.db('case_events').where({ action: 'location.viewed' }).where('actor_id', user.id).pluck('case_id');
  };

  it('records location.viewed only for the located rows answered', async () => {
    const located: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await createCase(s, staff.operator, { ambulance: i + 1 });
      expect((await shareLocation(s, id, { latitude: 17.4 + i / 100, longitude: 78.45 })).status).toBe(200);
      await setCreated(s, id, `2026-02-0${i + 1}T10:00:00.000Z`);
      located.push(id);
    }
    // The oldest one ends long ago: off the board.
    await close(s, staff.operator, located[0]);
    await s.ctx.db('cases').where({ id: located[0] }).update({ closed_at: '2026-02-01T11:00:00.000Z' });
    const before = await rowCount(s, 'case_events', { action: 'location.viewed' });
    expect((await s.api('GET', '/api/cases', { token: staff.operator })).status).toBe(200);
    expect(new Set(await viewedBy('operator@lifeline.test'))).toEqual(new Set([located[1], located[2]]));

    const page = await s.api('GET', '/api/cases?scope=all&limit=1&order=asc', { token: staff.admin });
    expect(ids(page.body)).toEqual([located[0]]);
    expect(await viewedBy('admin@lifeline.test')).toEqual([located[0]]);
    expect(await rowCount(s, 'case_events', { action: 'location.viewed' })).toBe(before + 3);
  });

  it('lets staff only list cases', async () => {
    const id = await createCase(s, staff.admin, { ambulance: 5 });
    const { viewer, driver } = await trackingTokens(s, staff.admin, id, 5);
    for (const path of ['/api/cases', '/api/cases?scope=all']) {
      expect((await s.api('GET', path)).status).toBe(401);
      for (const token of [viewer, driver]) expect([401, 403]).toContain((await s.api('GET', path, { token })).status);
      expect((await s.api('GET', path, { token: staff.operator })).status).toBe(200);
    }
  });
});

describe('history search over a common word (most of history matches)', () => {
  const s = useTestServer();
  let operator: string;
  const made: string[] = [];
  beforeAll(async () => {
    operator = await s.signIn('operator');
    // 2,100 ended calls straight into the table (their search text as the repository writes it): enough
    // that SQLite walks the creation-time index with LIKE rather than fetch every FTS match.
    const rows = Array.from({ length: 2100 }, (_, i) => {
      const at = new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();
      const row = {
        id: randomUUID(), description: i % 700 === 0 ? 'Collapsed on Rare Lane' : 'Fall on Common Road', status: 'closed',
        patient_name: `Pat ${i}`, patient_email: `pat${i}@example.com`, created_at: at, updated_at: at, closed_at: at,
        priority: 3, call_received_at: at, version: 1,
      };
      return { ...row, search_text: searchTextOf(row) };
    });
    for (let i = 0; i < rows.length; i += 300) await s.ctx.db('cases').insert(rows.slice(i, i + 300));
    made.push(...rows.map((r) => r.id));
  });

  it('pages a broad search newest first with an exact count, and still finds the rare', async () => {
    const broad = expectStatus(await s.api('GET', '/api/cases?scope=all&q=common%20road&limit=3', { token: operator }), 200, 'broad').body;
    const common = made.filter((_, i) => i % 700 !== 0);
    expect(ids(broad)).toEqual(common.slice(-3).reverse());
    expect(broad).toMatchObject({ total: common.length, total_exact: true });
    const next = expectStatus(await s.api('GET', `/api/cases?scope=all&q=common%20road&limit=3&cursor=${broad.next_cursor}`, { token: operator }), 200, 'next').body;
    expect(ids(next)).toEqual(common.slice(-6, -3).reverse());
    const rare = expectStatus(await s.api('GET', '/api/cases?scope=all&q=rare%20lane&order=asc', { token: operator }), 200, 'rare').body;
    expect(ids(rare)).toEqual([made[0], made[700], made[1400]]);
    expect(rare.total).toBe(3);
    const narrowed = expectStatus(await s.api('GET', '/api/cases?scope=all&q=common%20road&from=2025-01-02&to=2025-01-02', { token: operator }), 200, 'narrowed').body;
    expect(narrowed.total).toBe(24);
  });
});
