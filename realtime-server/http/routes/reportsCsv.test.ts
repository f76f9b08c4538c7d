import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { EXPORT_BATCH } from '../../../db/repositories/assignmentExportRepository';
import { assignmentCsv } from '../../services/assignmentCsv';
import { expectError } from '../../testing/assertions';
import { useTestServer } from '../../testing/testServer';

/**
 * GET /api/reports/assignments.csv over a hand-made set of calls in November 2020 (far from the
 * seed's and the demo history's days): which assignments a period holds and in what order,
 * the exact file, the headers of a download, and a 20,000-row period streamed in pages.
 */
const s = useTestServer();
const BOM = '\uFEFF';
/** A destination's name as an admin might type it: a comma, quotes, and a formula's first character. */
const HOSPITAL = `=St Mary's, "North"`;
const HEADER = 'case_id,assignment_id,priority,emergency_type,license_plate,outcome,eTimes.01,eTimes.03,eTimes.05,eTimes.06,eTimes.09,eTimes.11,eTimes.13,eTimes.14,capability,eResponse.07,'
  + 'eTimes.12,eDisposition.01,eDisposition.20,eDisposition.24,eDisposition.25\r\n';

type Times = Partial<Record<'en_route_at' | 'on_scene_at' | 'transporting_at' | 'at_hospital_at' | 'handover_at' | 'cleared_at' | 'cancelled_at', string>>;
/** The destination as kept on the assignment (issue 30). */
type Destination = { destination_hospital_id?: number | null; destination_name?: string; destination_reason?: string; destination_set_at?: string };
/** Without a capability the column's default: ALS. */
interface NewAssignment extends Times, Destination { plate?: string; status: string; dispatched_at: string; capability?: string }

const caseRow = (callAt: string, o: { type?: string | null; priority?: number; status?: string } = {}) => ({
  id: randomUUID(), description: 'Report fixture', status: o.status ?? 'closed', case_type: o.type === undefined ? 'Stroke' : o.type, patient_name: 'Fixture',
  patient_email: 'fixture@example.com', created_at: callAt, updated_at: callAt, priority: o.priority ?? 3, call_received_at: callAt,
});
const assignmentRow = (caseId: string, a: NewAssignment) => {
  const { plate, ...rest } = a;
  return { case_id: caseId, license_plate: plate ?? 'TS09 EA 1001', ...rest };
};

/** A call and its assignments (in this order, so their ids ascend); answers the case id and the assignment ids. */
async function call(db: Knex, callAt: string, o: Parameters<typeof caseRow>[1], assignments: NewAssignment[]) {
  const c = caseRow(callAt, o);
  await db('cases').insert(c);
  const ids: number[] = [];
  for (const a of assignments) {
    const rows: unknown[] = await db('assignments').insert(assignmentRow(c.id, a)).returning('id');
    const r = rows[0] as { id: number } | number;
    ids.push(typeof r === 'object' ? r.id : r);
  }
  return { id: c.id, ids };
}

/** `sec` seconds after an instant, as the server writes times. */
const plus = (iso: string, sec: number) => new Date(Date.parse(iso) + sec * 1000).toISOString();
const every = (at: string): NewAssignment => ({
  status: 'cleared', dispatched_at: plus(at, 40), en_route_at: plus(at, 90), on_scene_at: plus(at, 540), transporting_at: plus(at, 1500), at_hospital_at: plus(at, 2400), cleared_at: plus(at, 3600),
});

/** A GET over node:http, to see the transfer encoding and the chunks as they come. */
function download(path: string, token: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; chunks: number }>((resolve, reject) => {
    const req = http.get(s.url + path, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(parts).toString('utf8'), chunks: parts.length }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const lines = (text: string) => text.slice(BOM.length).split('\r\n').slice(0, -1);

describe('GET /api/reports/assignments.csv', () => {
  let operator: string;
  let admin: string;
  const F = {} as Record<'atFrom' | 'twice' | 'atTo' | 'before' | 'waiting' | 'kolkataOnly' | 'utcOnly' | 'units' | 'hospital', { id: string; ids: number[] }>;
  beforeAll(async () => {
    operator = await s.signIn('operator');
    admin = await s.signIn('admin');
    const db = s.ctx.db;
    // Inserted out of call order: the export orders by the call's time, then the assignment.
    F.twice = await call(db, '2020-11-10T08:00:00.000Z', { type: '=1+1', priority: 1 }, [
      { plate: '+SUM(A1)', status: 'cancelled', dispatched_at: '2020-11-10T08:00:30.000Z', en_route_at: '2020-11-10T08:01:00.000Z', cancelled_at: '2020-11-10T08:03:00.000Z' },
      // Transport skipped (treated on scene): those cells stay empty.
      { plate: '@cmd', status: 'cleared', dispatched_at: '2020-11-10T08:03:10.000Z', en_route_at: '2020-11-10T08:03:40.000Z', on_scene_at: '2020-11-10T08:12:00.000Z', cleared_at: '2020-11-10T08:50:00.000Z' },
    ]);
    F.atFrom = await call(db, '2020-11-01T00:00:00.000Z', { type: 'Fall, "bad"\nsecond line', priority: 2 }, [every('2020-11-01T00:00:00.000Z')]);
    F.atTo = await call(db, '2020-12-01T00:00:00.000Z', {}, [every('2020-12-01T00:00:00.000Z')]);
    F.before = await call(db, '2020-10-31T23:59:59.999Z', {}, [every('2020-10-31T23:59:59.999Z')]);
    F.waiting = await call(db, '2020-11-12T09:00:00.000Z', { status: 'pending' }, []);
    // 00:30 on 1 November in Kolkata (UTC+05:30), still 31 October in UTC.
    F.kolkataOnly = await call(db, '2020-10-31T19:00:00.000Z', { type: '-2' }, [{ status: 'on_scene', dispatched_at: '2020-10-31T19:01:00.000Z', on_scene_at: '2020-10-31T19:09:00.000Z' }]);
    // 01:30 on 1 December in Kolkata, 30 November in UTC.
    F.utcOnly = await call(db, '2020-11-30T20:00:00.000Z', { type: '\tTab' }, [{ status: 'dispatched', dispatched_at: '2020-11-30T20:00:50.000Z' }]);
    // September 2020: one call with three units, a car first, an ALS ambulance that conveys and a BLS one stood down.
    F.units = await call(db, '2020-09-15T10:00:00.000Z', { type: 'Cardiac arrest', priority: 1 }, [
      { plate: 'CAR 1', capability: 'responder', status: 'cleared', dispatched_at: '2020-09-15T10:00:20.000Z', on_scene_at: '2020-09-15T10:05:00.000Z', cleared_at: '2020-09-15T10:40:00.000Z' },
      { plate: 'ALS 1', capability: 'als', ...every('2020-09-15T10:00:00.000Z') },
      { plate: 'BLS 1', capability: 'bls', status: 'cancelled', dispatched_at: '2020-09-15T10:01:00.000Z', cancelled_at: '2020-09-15T10:06:00.000Z' },
    ]);
    // August 2020 (issue 30): one call, two units conveying to a hospital whose name needs quoting and defusing; the
    // first sent two pre-alerts (the later one counts), the second none and was not handed over yet.
    const at = '2020-08-20T06:00:00.000Z';
    const [hospital] = await db('hospitals').insert({
      name: HOSPITAL, latitude: 17.4, longitude: 78.5, status_updated_at: at, created_at: at, updated_at: at,
    }).returning('id').then((rows) => rows.map((r: { id: number } | number) => (typeof r === 'object' ? r.id : r)));
    const destination = { destination_hospital_id: hospital, destination_name: HOSPITAL, destination_set_at: plus(at, 1400) };
    F.hospital = await call(db, at, { type: 'Stroke', priority: 2 }, [
      { plate: 'ALS 2', ...every(at), handover_at: plus(at, 3000), ...destination, destination_reason: 'specialty' },
      { plate: 'ALS 3', status: 'at_hospital', dispatched_at: plus(at, 60), on_scene_at: plus(at, 600), transporting_at: plus(at, 1600), at_hospital_at: plus(at, 2500), ...destination, destination_reason: 'closest' },
    ]);
    const prealert = (activation: string, sent: number) => ({ assignment_id: F.hospital.ids[0], case_id: F.hospital.id, hospital_id: hospital, activation, content: '{}', sent_at: plus(at, sent) });
    await db('prealerts').insert([prealert('stroke', 1700), prealert('other', 1900)]);
  });

  it('answers the period as an exact file: [from, to), by call time then assignment, quoted, defused, skipped steps empty', async () => {
    const res = await download('/api/reports/assignments.csv?from=2020-11-01&to=2020-12-01', operator);
    expect(res.status).toBe(200);
    const [c1] = F.atFrom.ids;
    const [cancelled, cleared] = F.twice.ids;
    expect(res.text).toBe(BOM + HEADER
      + `${F.atFrom.id},${c1},2,"Fall, ""bad""\nsecond line",TS09 EA 1001,cleared,2020-11-01T00:00:00.000Z,2020-11-01T00:00:40.000Z,2020-11-01T00:01:30.000Z,2020-11-01T00:09:00.000Z,2020-11-01T00:25:00.000Z,2020-11-01T00:40:00.000Z,2020-11-01T01:00:00.000Z,,als,2207015,,,,,\r\n`
      + `${F.twice.id},${cancelled},1,'=1+1,'+SUM(A1),cancelled,2020-11-10T08:00:00.000Z,2020-11-10T08:00:30.000Z,2020-11-10T08:01:00.000Z,,,,,2020-11-10T08:03:00.000Z,als,2207015,,,,,\r\n`
      + `${F.twice.id},${cleared},1,'=1+1,'@cmd,cleared,2020-11-10T08:00:00.000Z,2020-11-10T08:03:10.000Z,2020-11-10T08:03:40.000Z,2020-11-10T08:12:00.000Z,,,2020-11-10T08:50:00.000Z,,als,2207015,,,,,\r\n`
      + `${F.utcOnly.id},${F.utcOnly.ids[0]},3,'\tTab,TS09 EA 1001,dispatched,2020-11-30T20:00:00.000Z,2020-11-30T20:00:50.000Z,,,,,,,als,2207015,,,,,\r\n`);
  });

  it('writes one row per unit of a call with several, each with its capability as dispatched and its eResponse.07 code', async () => {
    const res = await download('/api/reports/assignments.csv?from=2020-09-01&to=2020-10-01', operator);
    expect(res.status).toBe(200);
    const [car, als, bls] = F.units.ids;
    const at = '2020-09-15T10:00:00.000Z';
    expect(res.text).toBe(BOM + HEADER
      + `${F.units.id},${car},1,Cardiac arrest,CAR 1,cleared,${at},2020-09-15T10:00:20.000Z,,2020-09-15T10:05:00.000Z,,,2020-09-15T10:40:00.000Z,,responder,2207021,,,,,\r\n`
      + `${F.units.id},${als},1,Cardiac arrest,ALS 1,cleared,${at},2020-09-15T10:00:40.000Z,2020-09-15T10:01:30.000Z,2020-09-15T10:09:00.000Z,2020-09-15T10:25:00.000Z,2020-09-15T10:40:00.000Z,2020-09-15T11:00:00.000Z,,als,2207015,,,,,\r\n`
      + `${F.units.id},${bls},1,Cardiac arrest,BLS 1,cancelled,${at},2020-09-15T10:01:00.000Z,,,,,,2020-09-15T10:06:00.000Z,bls,2207017,,,,,\r\n`);
  });

  it('adds the hospital end: eTimes.12, the destination\'s name (defused, quoted) and reason, the latest pre-alert\'s activation and sent time', async () => {
    const res = await download('/api/reports/assignments.csv?from=2020-08-01&to=2020-09-01', operator);
    expect(res.status).toBe(200);
    const [conveyed, waiting] = F.hospital.ids;
    const at = '2020-08-20T06:00:00.000Z';
    const name = `"'=St Mary's, ""North"""`;
    expect(res.text).toBe(BOM + HEADER
      + `${F.hospital.id},${conveyed},2,Stroke,ALS 2,cleared,${at},2020-08-20T06:00:40.000Z,2020-08-20T06:01:30.000Z,2020-08-20T06:09:00.000Z,2020-08-20T06:25:00.000Z,2020-08-20T06:40:00.000Z,2020-08-20T07:00:00.000Z,,als,2207015,`
      + `2020-08-20T06:50:00.000Z,${name},specialty,other,2020-08-20T06:31:40.000Z\r\n`
      + `${F.hospital.id},${waiting},2,Stroke,ALS 3,at_hospital,${at},2020-08-20T06:01:00.000Z,,2020-08-20T06:10:00.000Z,2020-08-20T06:26:40.000Z,2020-08-20T06:41:40.000Z,,,als,2207015,`
      + `,${name},closest,,\r\n`);
  });

  it('counts local days in the given time zone: a call at the zone\'s midnight is in, one at its end is out', async () => {
    const res = await download('/api/reports/assignments.csv?from=2020-11-01&to=2020-12-01&tz=Asia/Kolkata', admin);
    expect(res.status).toBe(200);
    const cases = lines(res.text).slice(1).map((l) => l.split(',')[0]);
    // The multi-line emergency type splits its row here: only the first line carries a case id.
    // The last UTC instant of 31 October is 05:29 on 1 November in Kolkata: in; 30 November 20:00 UTC is 1 December there: out.
    expect(cases.filter((c) => c.length === 36)).toEqual([F.kolkataOnly.id, F.before.id, F.atFrom.id, F.twice.id, F.twice.id]);
    expect(lines(res.text)[1]).toContain(",'-2,TS09 EA 1001,on_scene,2020-10-31T19:00:00.000Z,");
    expect(res.headers['content-disposition']).toBe('attachment; filename="lifeline-assignments-2020-11-01-to-2020-11-30.csv"');
  });

  it('takes ISO instants with offsets too', async () => {
    const res = await download(`/api/reports/assignments.csv?from=${encodeURIComponent('2020-11-10T13:30:00+05:30')}&to=${encodeURIComponent('2020-11-10T08:00:00.001Z')}`, operator);
    expect(lines(res.text).slice(1).map((l) => l.split(',')[1])).toEqual(F.twice.ids.map(String));
  });

  it('is a CSV download that is never cached, with only the header for an empty period', async () => {
    const res = await s.api('GET', '/api/reports/assignments.csv?from=2019-01-01&to=2019-02-01', { token: operator });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="lifeline-assignments-2019-01-01-to-2019-01-31.csv"');
    // fetch decodes UTF-8 and drops the byte order mark.
    expect(res.body).toBe(HEADER);
  });

  it('refuses a bad period with 400 and a field', async () => {
    const get = (q: string) => s.api('GET', `/api/reports/assignments.csv?${q}`, { token: operator });
    expectError(await get('from=yesterday'), 400, 'from: must be an ISO 8601 date (2026-11-01) or date and time with offset (2026-11-01T00:00:00+05:30)');
    expectError(await get('from=2020-12-01&to=2020-11-01'), 400, 'from: must be before to');
    expectError(await get('from=2019-01-01&to=2020-12-01'), 400, 'to: a period spans at most 400 days');
    expectError(await get('from=2020-11-01&to=2020-12-01&tz=Mars/Olympus'), 400, 'tz: must be an IANA time zone such as Asia/Kolkata or UTC');
  });
});

describe('a large period', () => {
  const N_CASES = 10_000;
  let operator: string;
  beforeAll(async () => {
    operator = await s.signIn('operator');
    const db = s.ctx.db;
    const start = Date.parse('2021-03-01T00:00:00.000Z');
    const cases = Array.from({ length: N_CASES }, (_, i) => caseRow(new Date(start + i * 60_000).toISOString(), { type: i % 2 ? 'Stroke' : 'Fall' }));
    await db.batchInsert('cases', cases, 500);
    // Two assignments per call (one cancelled, then one cleared): 20,000 rows.
    const assignments = cases.flatMap((c) => [
      assignmentRow(c.id, { status: 'cancelled', dispatched_at: plus(c.call_received_at, 30), cancelled_at: plus(c.call_received_at, 60) }),
      assignmentRow(c.id, every(c.call_received_at)),
    ]);
    await db.batchInsert('assignments', assignments, 500);
  }, 60_000);

  it('streams 20,000 rows in chunks (no Content-Length), in order', async () => {
    const res = await download('/api/reports/assignments.csv?from=2021-03-01&to=2021-04-01', operator);
    expect(res.status).toBe(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.chunks).toBeGreaterThan(1);
    const rows = lines(res.text).slice(1).map((l) => l.split(','));
    expect(rows).toHaveLength(2 * N_CASES);
    const keys = rows.map((r) => `${r[6]} ${r[1].padStart(10, '0')}`);
    expect(keys).toEqual([...keys].sort());
    expect(rows.filter((r) => r[5] === 'cancelled')).toHaveLength(N_CASES);
  });

  it('reads the period a page at a time and stops reading when the consumer stops', async () => {
    const db = s.ctx.db;
    const period = { from: '2021-03-01T00:00:00.000Z', to: '2021-04-01T00:00:00.000Z' };
    let pages = 0;
    const count = (q: { sql: string }) => { if (/from ["`]assignments["`] as ["`]a["`]/.test(q.sql)) pages++; };
    db.on('query', count);
    try {
      let chunks = 0;
      for await (const _ of await assignmentCsv(db, period)) chunks++;
      // The header, then one chunk per full page; the last query finds the end.
      expect(chunks).toBe(1 + (2 * N_CASES) / EXPORT_BATCH);
      expect(pages).toBe((2 * N_CASES) / EXPORT_BATCH + 1);

      pages = 0;
      const it = await assignmentCsv(db, period);
      await it.next(); // the header
      await it.next(); // the first page
      await it.return(undefined); // the client went away
      expect(await it.next()).toEqual({ done: true, value: undefined });
      expect(pages).toBe(1);
    } finally {
      db.off('query', count);
    }
  });

  it('survives a client that leaves mid-download: the next download is whole', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${s.url}/api/reports/assignments.csv?from=2021-03-01&to=2021-04-01`, { headers: { authorization: `Bearer ${operator}` } }, (res) => {
        res.on('error', () => undefined);
        res.once('data', () => { req.destroy(); resolve(); });
      });
      // The reset of our own leaving is expected.
      req.on('error', (err) => { if (!req.destroyed) reject(err); });
    });
    const again = await download('/api/reports/assignments.csv?from=2021-03-01&to=2021-04-01', operator);
    expect(lines(again.text)).toHaveLength(1 + 2 * N_CASES);
  });
});
