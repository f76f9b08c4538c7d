import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../testing/assertions';
import {
  FIXTURE_CALLS, FIXTURE_OUTSIDE, FIXTURE_PERIOD, HANDOVER_PERIOD, MULTI_UNIT_CALLS, MULTI_UNIT_PERIOD, insertFixtureCalls, insertHandoverFixture,
} from '../../testing/reportFixture';
import { useTestServer } from '../../testing/testServer';
import { reportService } from '../../services/reportService';
import { buildResponseTimes } from '../../services/responseTimes';

/**
 * The report routes over the database: the fixture's calls (and two just outside the period)
 * inserted as cases and assignments, read back through the SQL and figured as
 * reportService.test.ts states; utilisation over a day with a clipped assignment and a deleted ambulance;
 * calls with several units of different capabilities (issue 29) on a day of their own.
 */
const s = useTestServer();
let token = '';
const PERIOD = 'from=2026-10-01&to=2026-10-03&tz=Asia/Kolkata';
const MULTI_UNIT = 'from=2026-10-05&to=2026-10-06&tz=Asia/Kolkata';
const HANDOVER = 'from=2026-10-12&to=2026-10-13&tz=Asia/Kolkata';
let handoverHospitals: number[] = [];

beforeAll(async () => {
  const db = s.ctx.db;
  const [a1, a2, gone] = await db('ambulances').insert([
    { license_plate: 'KA01 A 1', plate_key: 'KA01A1', status: 'available', created_at: '2026-07-01T00:00:00.000Z', updated_at: '2026-07-01T00:00:00.000Z' },
    { license_plate: 'KA01 A 2', plate_key: 'KA01A2', status: 'available', created_at: '2026-08-01T12:00:00.000Z', updated_at: '2026-08-01T12:00:00.000Z' },
    { license_plate: 'KA01 Z 9', plate_key: 'KA01Z9', status: 'available', created_at: '2026-07-01T00:00:00.000Z', updated_at: '2026-07-01T00:00:00.000Z' },
  ]).returning('id').then((rows) => rows.map((r: { id: number } | number) => (typeof r === 'object' ? r.id : r)));
  await insertFixtureCalls(db, [...FIXTURE_CALLS, ...FIXTURE_OUTSIDE], { id: a1, license_plate: 'KA01 A 1' });

  // Several units per call: a car, an ALS and a BLS ambulance, each with its capability as dispatched.
  const units = { responder: 'KA01 R 1', als: 'KA01 M 1', bls: 'KA01 B 1' } as const;
  const unitIds = await db('ambulances').insert(Object.entries(units).map(([capability, plate]) => ({
    // Added after the utilisation day of 2026-08-01 below, so that its list stays as it was.
    license_plate: plate, plate_key: plate.replaceAll(' ', ''), status: 'available', capability, created_at: '2026-10-01T00:00:00.000Z', updated_at: '2026-10-01T00:00:00.000Z',
  }))).returning('id').then((rows) => rows.map((r: { id: number } | number) => (typeof r === 'object' ? r.id : r)));
  await insertFixtureCalls(db, MULTI_UNIT_CALLS, { id: a1, license_plate: 'KA01 A 1' }, {
    responder: { id: unitIds[0], license_plate: units.responder }, als: { id: unitIds[1], license_plate: units.als }, bls: { id: unitIds[2], license_plate: units.bls },
  });

  // 2026-08-01 (UTC): an hour of A1 before the day is not counted; an open assignment runs to the day's end.
  const shift = (id: string, ambulanceId: number, plate: string, dispatched: string, ended: string | null, cancelled = false) => ({
    id, ambulanceId, plate, dispatched: `2026-${dispatched}:00.000Z`, ended: ended && `2026-${ended}:00.000Z`, cancelled,
  });
  for (const x of [
    shift('u-1', a1, 'KA01 A 1', '07-31T23:00', '08-01T01:00'),
    shift('u-2', a1, 'KA01 A 1', '08-01T10:00', '08-01T10:30'),
    shift('u-3', a1, 'KA01 A 1', '08-01T23:30', null),
    shift('u-4', a2, 'KA01 A 2', '08-01T13:00', '08-01T15:00', true),
    shift('u-5', gone, 'KA01 Z 9', '08-01T02:00', '08-01T04:00'),
  ]) {
    await db('cases').insert({
      id: x.id, description: 'Utilisation fixture', status: x.ended ? 'resolved' : 'active', patient_name: 'Fixture', patient_email: 'fixture@example.com',
      created_at: x.dispatched, updated_at: x.dispatched, priority: 3, call_received_at: x.dispatched,
    });
    await db('assignments').insert({
      case_id: x.id, ambulance_id: x.ambulanceId, license_plate: x.plate, dispatched_at: x.dispatched,
      status: !x.ended ? 'on_scene' : x.cancelled ? 'cancelled' : 'cleared', on_scene_at: x.ended ? null : x.dispatched,
      cleared_at: x.cancelled ? null : x.ended, cancelled_at: x.cancelled ? x.ended : null,
    });
  }
  // The ambulance is deleted as the service does it: its assignments keep the plate and forget the id.
  await db('assignments').where({ ambulance_id: gone }).update({ ambulance_id: null });
  await db('ambulances').where({ id: gone }).delete();
  handoverHospitals = (await insertHandoverFixture(db)).hospitalIds;
  token = await s.signIn('operator');
});

describe('GET /api/reports/response-times', () => {
  it('reads the period\'s calls by when they came in, with their assignments, and figures them', async () => {
    const res = await s.api('GET', `/api/reports/response-times?${PERIOD}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(buildResponseTimes(FIXTURE_CALLS, FIXTURE_PERIOD, s.config.priorities, s.config.clockStops));
    // The figures reportService.test.ts states by hand, through the database.
    expect(res.body.priorities[0].intervals.response).toEqual({ n: 10, mean_s: 672, p50_s: 600, p90_s: 960, missing: 2 });
    expect(res.body.overall.calls).toBe(16);
    expect(res.body.daily[0]).toEqual({ date: '2026-10-01', priority: 1, calls: 10, p90_s: 960 });
  });

  it('takes instants with an offset too: the half-open period leaves out a call at its end', async () => {
    const res = await s.api('GET', `/api/reports/response-times?from=${encodeURIComponent('2026-10-01T00:00:00+05:30')}&to=${encodeURIComponent('2026-10-02T23:30:00+05:30')}&tz=Asia/Kolkata`, { token });
    expect(res.status).toBe(200);
    expect(res.body.priorities[1].calls).toBe(3);
    expect(res.body.to).toBe('2026-10-02T18:00:00.000Z');
  });

  it('refuses a bad time zone, a period that ends before it starts, and one too long', async () => {
    expectError(await s.api('GET', '/api/reports/response-times?from=2026-10-01&to=2026-10-03&tz=Mars/Olympus', { token }), 400, 'tz: must be an IANA time zone such as Asia/Kolkata or UTC');
    expectError(await s.api('GET', '/api/reports/demand?from=2026-10-03&to=2026-10-01', { token }), 400, 'from: must be before to');
    expectError(await s.api('GET', '/api/reports/utilisation?from=2025-01-01&to=2026-10-01', { token }), 400, 'to: a period spans at most 400 days');
    expectError(await s.api('GET', '/api/reports/response-times?from=yesterday', { token }), 400, 'from: must be an ISO 8601 date (2026-11-01) or date and time with offset (2026-11-01T00:00:00+05:30)');
  });

  it('refuses a day the calendar does not have, and a year before 1970, rather than reading another date', async () => {
    // Before: 2026-13-45 rolled over to 2027-02-14, 2026-02-30 to 2026-03-02, and 0000-01-01 was read as 1900-01-01.
    const notADay = (v: string) => `${v} is not a day of the calendar (months 01–12, days as the month has)`;
    expectError(await s.api('GET', '/api/reports/response-times?from=2026-12-01&to=2026-13-45', { token }), 400, `to: ${notADay('2026-13-45')}`);
    expectError(await s.api('GET', '/api/reports/demand?from=2026-02-01&to=2026-02-30', { token }), 400, `to: ${notADay('2026-02-30')}`);
    expectError(await s.api('GET', '/api/reports/utilisation?from=0000-01-01&to=0000-02-01', { token }), 400, 'from: must be in 1970 or later');
    expectError(await s.api('GET', '/api/reports/utilisation?from=0000-01-01', { token }), 400, 'from: must be in 1970 or later');
    expectError(await s.api('GET', `/api/reports/demand?from=${encodeURIComponent('0001-01-01T00:00:00Z')}&to=${encodeURIComponent('0001-02-01T00:00:00Z')}`, { token }), 400, 'from: must be in 1970 or later');
    expectError(await s.api('GET', '/api/reports/assignments.csv?from=2026-04-31&to=2026-05-02', { token }), 400, `from: ${notADay('2026-04-31')}`);
    // A leap day is a day.
    expect((await s.api('GET', '/api/reports/demand?from=2024-02-29&to=2024-03-01', { token })).status).toBe(200);
  });

  it('is for staff only', async () => {
    expect((await s.api('GET', `/api/reports/response-times?${PERIOD}`)).status).toBe(401);
    expect((await s.api('GET', `/api/reports/response-times?${PERIOD}`, { token: await s.signIn('admin') })).status).toBe(200);
  });
});

describe('GET /api/reports/response-times with several units on a call', () => {
  it('reads each assignment\'s capability: first on scene, able to convey on scene, and the response by the clock stop', async () => {
    const res = await s.api('GET', `/api/reports/response-times?${MULTI_UNIT}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(buildResponseTimes(MULTI_UNIT_CALLS, MULTI_UNIT_PERIOD, s.config.priorities, s.config.clockStops));
    // The figures responseTimes.test.ts states by hand, through the database.
    const [p1, p2] = res.body.priorities;
    expect([p1.clock_stop, p1.calls, p2.clock_stop, p2.calls]).toEqual(['first', 1, 'transport', 2]);
    // (a) the car at 300 s stops P1's clock; the ALS ambulance was on scene at 600 s.
    expect(p1.intervals.response).toEqual({ n: 1, mean_s: 300, p50_s: 300, p90_s: 300, missing: 0 });
    expect(p1.intervals.first_response).toEqual({ n: 1, mean_s: 300, p50_s: 300, p90_s: 300, missing: 0 });
    expect(p1.intervals.transport_response).toEqual({ n: 1, mean_s: 600, p50_s: 600, p90_s: 600, missing: 0 });
    // (b) 900 s; (c) nobody conveyed: 420 s at the car, though the BLS ambulance was on scene at 1500 s.
    expect(p2.intervals.response).toEqual({ n: 2, mean_s: 660, p50_s: 420, p90_s: 900, missing: 0 });
    expect(p2.intervals.first_response).toEqual({ n: 2, mean_s: 660, p50_s: 420, p90_s: 900, missing: 0 });
    expect(p2.intervals.transport_response).toEqual({ n: 2, mean_s: 1200, p50_s: 900, p90_s: 1500, missing: 0 });
    expect(p2.response_within_target).toEqual({ n: 2, share: 1 });
    expect(res.body.overall.calls).toBe(3);
  });

  it('takes the clock stops from the configuration (PRIORITY_CLOCK_STOP)', async () => {
    const ctx = { ...s.ctx, config: { ...s.config, clockStops: { 1: 'transport', 2: 'first', 3: 'first', 4: 'first' } as const } };
    const report = await reportService.responseTimes(ctx, MULTI_UNIT_PERIOD);
    expect(report.priorities.map((p) => p.clock_stop)).toEqual(['transport', 'first', 'first', 'first']);
    // (a) now stops at the ALS ambulance (it conveyed); P2 at each call's first arrival: 900 and 420.
    expect(report.priorities[0].intervals.response.p50_s).toBe(600);
    expect(report.priorities[1].intervals.response).toEqual({ n: 2, mean_s: 660, p50_s: 420, p90_s: 900, missing: 0 });
  });
});

describe('GET /api/reports/demand', () => {
  it('counts the period\'s calls by local hour of week', async () => {
    const res = await s.api('GET', `/api/reports/demand?${PERIOD}`, { token });
    expect(res.status).toBe(200);
    const expected = Array.from({ length: 7 }, () => Array(24).fill(0));
    // Thursday 1 October: 00:00, 00:30, ten calls from 10:00, 23:50; Friday: 09:00, 09:30, 23:30 (Kolkata).
    expected[3][0] = 2;
    expected[3][10] = 10;
    expected[3][23] = 1;
    expected[4][9] = 2;
    expected[4][23] = 1;
    expect(res.body).toEqual({ ...FIXTURE_PERIOD, counts: expected });
  });
});

describe('GET /api/reports/utilisation', () => {
  it('counts each unit of a call with several for its own dispatch to clear', async () => {
    const res = await s.api('GET', `/api/reports/utilisation?${MULTI_UNIT}`, { token });
    expect(res.status).toBe(200);
    const units = Object.fromEntries((res.body.ambulances as { license_plate: string; committed_s: number; on_shift_s: number }[])
      .filter((u) => /^KA01 [RMB] 1$/.test(u.license_plate)).map((u) => [u.license_plate, [u.committed_s, u.on_shift_s]]));
    expect(units).toEqual({
      // The car on (a) 30 → 1800 s and (c) 30 → 2400 s; the ALS ambulance on (a) 60 → 3600 and (b) 60 → 3600; the BLS on (c) 90 → 2100.
      'KA01 R 1': [1770 + 2370, 86_400],
      'KA01 M 1': [3540 + 3540, 86_400],
      'KA01 B 1': [2010, 86_400],
    });
  });

  it('sums each ambulance\'s committed time in the period over its time on shift, a deleted one by its plate', async () => {
    const res = await s.api('GET', '/api/reports/utilisation?from=2026-08-01&to=2026-08-02', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2026-08-01T00:00:00.000Z', to: '2026-08-02T00:00:00.000Z',
      overall: { committed_s: 21_600, on_shift_s: 144_000, share: 0.15 },
      ambulances: [
        { ambulance_id: expect.any(Number), license_plate: 'KA01 A 1', committed_s: 7200, on_shift_s: 86_400, share: 0.0833 },
        { ambulance_id: expect.any(Number), license_plate: 'KA01 A 2', committed_s: 7200, on_shift_s: 43_200, share: 0.1667 },
        { ambulance_id: null, license_plate: 'KA01 Z 9', committed_s: 7200, on_shift_s: 14_400, share: 0.5 },
      ],
    });
  });
});

describe('GET /api/reports/handover', () => {
  /** No figures: what a group without handovers or acknowledged pre-alerts says (never zero for "none"). */
  const none = (missing: number) => ({ n: 0, mean_s: null, p50_s: null, p90_s: null, missing });

  it('figures each destination and all of them from the hand-made day (reportFixture.ts HANDOVER_ARRIVALS)', async () => {
    const res = await s.api('GET', `/api/reports/handover?${HANDOVER}`, { token });
    expect(res.status).toBe(200);
    const [cityGeneral, royalInfirmary] = handoverHospitals;
    expect(res.body).toEqual({
      ...HANDOVER_PERIOD,
      targets_min: [15, 30, 45, 60],
      // Six arrivals; handovers of 10, 20, 40 and 70 minutes; 5 + 25 + 55 minutes beyond 15 = 1.42 hours.
      overall: {
        arrivals: 6,
        handover: { n: 4, mean_s: 2100, p50_s: 1200, p90_s: 4200, missing: 2 },
        within_first_target: { n: 1, share: 0.25 },
        within_second_target: { n: 2, share: 0.5 },
        over_last_target: 1,
        hours_lost: 1.42,
        prealerts_sent: 4,
        prealerts_acknowledged: 3,
        time_to_acknowledge: { n: 3, mean_s: 110, p50_s: 60, p90_s: 240, missing: 1 },
      },
      hospitals: [
        {
          // 10 and 40 minutes and one not handed over; the re-routed unit's unacknowledged pre-alert was sent here.
          hospital_id: cityGeneral, name: 'City General',
          arrivals: 3,
          handover: { n: 2, mean_s: 1500, p50_s: 600, p90_s: 2400, missing: 1 },
          within_first_target: { n: 1, share: 0.5 },
          within_second_target: { n: 1, share: 0.5 },
          over_last_target: 0,
          hours_lost: 0.42,
          prealerts_sent: 3,
          prealerts_acknowledged: 2,
          time_to_acknowledge: { n: 2, mean_s: 150, p50_s: 60, p90_s: 240, missing: 1 },
        },
        {
          // 20 and 70 minutes (the later arrived at the period's last minute, handed over after it): 5 + 55 minutes lost.
          hospital_id: royalInfirmary, name: 'Royal Infirmary',
          arrivals: 2,
          handover: { n: 2, mean_s: 2700, p50_s: 1200, p90_s: 4200, missing: 0 },
          within_first_target: { n: 0, share: 0 },
          within_second_target: { n: 1, share: 0.5 },
          over_last_target: 1,
          hours_lost: 1,
          prealerts_sent: 1,
          prealerts_acknowledged: 1,
          time_to_acknowledge: { n: 1, mean_s: 30, p50_s: 30, p90_s: 30, missing: 0 },
        },
        {
          hospital_id: null, name: null,
          arrivals: 1,
          handover: none(1),
          within_first_target: { n: 0, share: null },
          within_second_target: { n: 0, share: null },
          over_last_target: 0,
          hours_lost: 0,
          prealerts_sent: 0,
          prealerts_acknowledged: 0,
          time_to_acknowledge: none(0),
        },
      ],
    });
  });

  it('keeps a deleted hospital\'s arrivals under the name the assignments kept', async () => {
    // Deleted as the service deletes it (the foreign keys set the ids null), in a transaction rolled back:
    // the other tests read the fixture as it was.
    const undo = new Error('rolled back on purpose');
    const before = await reportService.handover(s.ctx, HANDOVER_PERIOD);
    await expect(s.ctx.db.transaction(async (trx) => {
      await trx('hospitals').where({ id: handoverHospitals[1] }).delete();
      const report = await reportService.handover({ ...s.ctx, db: trx }, HANDOVER_PERIOD);
      expect(report.hospitals.map((h) => [h.hospital_id, h.name, h.arrivals, h.prealerts_sent])).toEqual([
        [handoverHospitals[0], 'City General', 3, 3],
        [null, 'Royal Infirmary', 2, 1],
        [null, null, 1, 0],
      ]);
      expect(report.overall).toEqual(before.overall);
      throw undo;
    })).rejects.toBe(undo);
  });

  it('takes the targets from the configuration (HANDOVER_TARGETS)', async () => {
    const report = await reportService.handover({ ...s.ctx, config: { ...s.config, handoverTargets: [10, 20, 45, 69] } }, HANDOVER_PERIOD);
    expect(report.targets_min).toEqual([10, 20, 45, 69]);
    // 10 minutes is within the first (at most counts), 20 within the second, 70 over 69; beyond 10: 10 + 30 + 60 minutes.
    expect(report.overall).toMatchObject({
      within_first_target: { n: 1, share: 0.25 }, within_second_target: { n: 2, share: 0.5 }, over_last_target: 1, hours_lost: 1.67,
    });
  });

  it('counts arrivals with no destination recorded under none, handovers missing, never zero', async () => {
    // The response-times fixture's nine conveyed calls reached hospital with no destination or handover recorded.
    const res = await s.api('GET', `/api/reports/handover?${PERIOD}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.hospitals).toHaveLength(1);
    expect(res.body.hospitals[0]).toMatchObject({ hospital_id: null, name: null, arrivals: 9, handover: none(9), hours_lost: 0 });
    expect(res.body.overall.arrivals).toBe(9);
  });

  it('answers an empty period with empty figures, refuses a bad one, and is for staff only', async () => {
    const res = await s.api('GET', '/api/reports/handover?from=2019-01-01&to=2019-02-01', { token });
    expect(res.status).toBe(200);
    expect(res.body.hospitals).toEqual([]);
    expect(res.body.overall).toMatchObject({ arrivals: 0, handover: none(0), hours_lost: 0, prealerts_sent: 0, time_to_acknowledge: none(0) });
    expectError(await s.api('GET', '/api/reports/handover?from=2026-10-13&to=2026-10-12', { token }), 400, 'from: must be before to');
    expectError(await s.api('GET', '/api/reports/handover?tz=Mars/Olympus', { token }), 400, 'tz: must be an IANA time zone such as Asia/Kolkata or UTC');
    expect((await s.api('GET', `/api/reports/handover?${HANDOVER}`)).status).toBe(401);
    expect((await s.api('GET', `/api/reports/handover?${HANDOVER}`, { token: await s.signIn('admin') })).status).toBe(200);
  });
});
