import { beforeAll, describe, expect, it } from 'vitest';
import { CASE_DTO_LOCATION_KEYS, CASE_LOCATION_COLUMN_NAMES } from '../contract';
import { presentCase } from '../presenters/presentCase';
import { dbSnapshot } from '../testing/assertions';
import { caseEvents, caseRow, dispatchCase, expectStatus, shareLocation, updateCase } from '../testing/dispatchHelpers';
import { signedInStaff, useTestServer } from '../testing/testServer';
import { runRetention } from './retention';

/**
 * Retention of the location taken at intake (issue 16): it is the patient's location as much as
 * their shared fix, so RETENTION_DAYS after the case ended it goes with it, from the case row,
 * from the 'created' and 'updated' entries that wrote it, and from the copy a deletion keeps;
 * address searches typed at intake leave their cache after the same time.
 */
const DAY = 24 * 3600_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

const s = useTestServer({ env: { RETENTION_DAYS: '30', LINK_LIMIT_PER_MIN: '100000' } });
const staff = signedInStaff(s);

const CHARMINAR = { latitude: 17.3615636, longitude: 78.4746645, address: 'Charminar, Hyderabad', source: 'address' };
const MOVED = { latitude: 17.4, longitude: 78.45, address: 'Abids Road 4, Hyderabad', source: 'address' };
const PLACE_KEYS = ['intake_latitude', 'intake_longitude', 'intake_address'];
const intakeColumns = (l: typeof CHARMINAR) => ({ intake_latitude: l.latitude, intake_longitude: l.longitude, intake_address: l.address, intake_source: l.source });

/** A case with an intake location that was then corrected; ended (closed or deleted) `endedDaysAgo`. */
async function withIntake(ambulance: number, end: 'closed' | 'deleted', endedDaysAgo: number, opts: { share?: boolean } = {}) {
  const id = await dispatchCase(s, staff.operator, ambulance, { intake_location: CHARMINAR });
  expectStatus(await updateCase(s, staff.operator, id, { intake_location: MOVED }), 200, 'correct');
  if (opts.share) expectStatus(await shareLocation(s, id, { latitude: 17.401, longitude: 78.401, accuracy: 9 }), 200, 'share');
  if (end === 'deleted') {
    expectStatus(await s.api('DELETE', `/api/cases/${id}`, { token: staff.admin }), 200, 'delete');
    await s.ctx.db('case_events').where({ case_id: id, action: 'deleted' }).update({ created_at: ago(endedDaysAgo) });
    return id;
  }
  expectStatus(await updateCase(s, staff.operator, id, { status: 'closed' }), 200, 'close');
  await s.ctx.db('cases').where({ id }).update({ created_at: ago(endedDaysAgo + 1), closed_at: ago(endedDaysAgo) });
  return id;
}

const sides = async (id: string, action: string) =>
  (await caseEvents(s, id)).filter((e) => e.action === action).map((e) => [e.before && JSON.parse(e.before), e.after && JSON.parse(e.after)]);

describe('runRetention and the intake location', () => {
  const c: Record<string, string> = {};
  const kept: Record<string, unknown> = {};

  beforeAll(async () => {
    c.sharedLong = await withIntake(1, 'closed', 31, { share: true });
    c.intakeOnlyLong = await withIntake(2, 'closed', 31);
    c.recent = await withIntake(3, 'closed', 5, { share: true });
    c.deletedLong = await withIntake(4, 'deleted', 31);
    c.deletedRecent = await withIntake(5, 'deleted', 5);
    kept.recentRow = await caseRow(s, c.recent);
    kept.recentTimeline = await caseEvents(s, c.recent);
    kept.deletedRecentTimeline = await caseEvents(s, c.deletedRecent);
    await s.ctx.db('geocode_searches').insert([
      { query: 'old street 1', results: '[]', created_at: ago(31) },
      { query: 'new street 2', results: '[]', created_at: ago(1) },
    ]);
  });

  it('clears it from cases ended more than RETENTION_DAYS ago, shared fix or not, and says so on their timelines', async () => {
    const result = await runRetention(s.ctx);
    // Entries: the 'created' and correcting 'updated' of each of the three long-ended cases, the one share's
    // 'location' entry, and the deleted case's copy.
    expect(result).toMatchObject({ casesCleared: 2, entriesRedacted: 3 * 2 + 1 + 1, searchesDeleted: 1 });
    for (const id of [c.sharedLong, c.intakeOnlyLong]) {
      const row = await caseRow(s, id);
      expect(row).toMatchObject({ intake_latitude: null, intake_longitude: null, intake_address: null, intake_source: null, latitude: null, longitude: null });
      expect(presentCase({ ...row, license_plate: null })).toMatchObject({ intake_location: null, patient_location: null, latitude: null, location_source: null, wkb: null });
      expect((await caseEvents(s, id)).at(-1)).toMatchObject({ action: 'location.redacted', actor_type: 'system' });
    }
  });

  it("takes the place out of the 'created' and 'updated' entries that wrote it, keeping how it was found and that it changed", async () => {
    for (const id of [c.sharedLong, c.intakeOnlyLong, c.deletedLong]) {
      const [[, created]] = await sides(id, 'created');
      for (const k of PLACE_KEYS) expect(created).not.toHaveProperty(k);
      expect(created).toMatchObject({ intake_source: 'address', redacted: true, patient_name: 'Pat Doe', status: 'active' });
      // The correction changed only the place (both were addresses): what is left says a redacted change happened.
      expect((await sides(id, 'updated'))[0]).toEqual([{ redacted: true }, { redacted: true }]);
      const text = JSON.stringify(await caseEvents(s, id));
      for (const secret of ['Charminar', 'Abids', '17.3615636', '78.4746645', '78.45']) expect(text, secret).not.toContain(secret);
    }
  });

  it("takes the intake and patient locations out of the copy a 'deleted' entry keeps", async () => {
    const [[copy]] = await sides(c.deletedLong, 'deleted');
    expect(copy).toMatchObject({ id: c.deletedLong, latitude: null, longitude: null, intake_location: null, patient_location: null, location_source: null, wkb: null, patientName: 'Pat Doe' });
    const [[recentCopy]] = await sides(c.deletedRecent, 'deleted');
    expect(recentCopy).toMatchObject({ intake_location: MOVED, latitude: MOVED.latitude });
  });

  it('leaves cases and entries on the other side of the line as they were', async () => {
    expect(await caseRow(s, c.recent)).toEqual(kept.recentRow);
    expect(await caseEvents(s, c.recent)).toEqual(kept.recentTimeline);
    expect(await caseEvents(s, c.deletedRecent)).toEqual(kept.deletedRecentTimeline);
    expect(await s.ctx.db('geocode_searches').pluck('query')).toEqual(['new street 2']);
  });

  it('is idempotent: a second pass changes nothing', async () => {
    const before = await dbSnapshot(s.ctx.db);
    expect(await runRetention(s.ctx)).toEqual({ casesCleared: 0, entriesRedacted: 0, positionsDeleted: 0, placesDeleted: 0, searchesDeleted: 0, outboxRedacted: 0, outboxDeleted: 0, prealertsRedacted: 0 });
    expect(await dbSnapshot(s.ctx.db)).toEqual(before);
  });
});

describe('runRetention forgets what contract/privacy.ts lists, column by column', () => {
  it('clears every location column of a long-ended case that holds a place; details without a place are no location', async () => {
    const full = await withIntake(6, 'closed', 40, { share: true });
    const detailOnly = await withIntake(7, 'closed', 40);
    await runRetention(s.ctx); // both cleared the usual way
    // Then every listed column set on one, whatever wrote it; the other keeps only details (an accuracy, how it was found) and no place.
    await s.ctx.db('cases').where({ id: full }).update({ latitude: 17.4, longitude: 78.4, location_accuracy: 7, location_at: ago(41), ...intakeColumns(CHARMINAR) });
    await s.ctx.db('cases').where({ id: detailOnly }).update({ location_accuracy: 30, intake_source: 'coordinates' });
    for (const k of CASE_LOCATION_COLUMN_NAMES) expect((await caseRow(s, full))[k], k).not.toBeNull();
    const untouched = await caseRow(s, detailOnly);

    expect(await runRetention(s.ctx)).toMatchObject({ casesCleared: 1 });
    const row = await caseRow(s, full);
    expect(Object.fromEntries(CASE_LOCATION_COLUMN_NAMES.map((k) => [k, row[k]]))).toEqual(Object.fromEntries(CASE_LOCATION_COLUMN_NAMES.map((k) => [k, null])));
    const dto = presentCase({ ...row, license_plate: null });
    expect(CASE_DTO_LOCATION_KEYS.filter((k) => dto[k] != null)).toEqual([]);
    expect(await caseRow(s, detailOnly)).toEqual(untouched);
  });

  it("takes any place column of the case out of an edit entry, not only the intake's", async () => {
    const id = await withIntake(8, 'closed', 40);
    // An edit that named the shared fix's columns (none writes one today; the list, not the code, decides).
    await s.ctx.db('case_events').insert({
      case_id: id, action: 'updated', actor_type: 'system', actor_id: null, created_at: ago(40),
      before: JSON.stringify({ latitude: 17.45, longitude: 78.5, status: 'active' }), after: JSON.stringify({ latitude: 17.46, longitude: 78.51, status: 'closed' }),
    });
    await runRetention(s.ctx);
    const edits = await sides(id, 'updated');
    expect(edits.at(-1)).toEqual([{ status: 'active', redacted: true }, { status: 'closed', redacted: true }]);
    expect(JSON.stringify(await caseEvents(s, id))).not.toMatch(/17\.4[56]|78\.5/);
  });
});
