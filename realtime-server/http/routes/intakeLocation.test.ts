import { beforeAll, describe, expect, it } from 'vitest';
import { ACCURATE_FIX_M, LOCATION_MISMATCH_M, distanceMeters, pointWkb } from '../../contract';
import {
  caseEvents, caseRow, casePayload, dispatch, expectStatus, rememberLocationLink, shareLocation, trackingTokens, updateCase, writeCounts,
} from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';

/**
 * The location taken on the phone (issue 16): kept apart from the patient's shared GPS, the
 * best known of the two answered as the case's latitude/longitude, a mismatch flagged, edits
 * on the timeline, and the driver's link given somewhere to drive before the patient shares.
 */
const s = useTestServer({ env: { LINK_LIMIT_PER_MIN: '100000' } });
let operator: string;
beforeAll(async () => { operator = await s.signIn('operator'); });

const CHARMINAR = { latitude: 17.3615636, longitude: 78.4746645, address: 'Charminar, Hyderabad, Telangana, India', source: 'address' };
/** About 2.6 km north of Charminar. */
const ABIDS = { latitude: 17.385, longitude: 78.4747 };
/** About 60 m from Charminar. */
const NEAR_CHARMINAR = { latitude: 17.362, longitude: 78.4751 };

/** POST /api/cases, waiting (no ambulance), with these extra fields. */
async function createPending(extra: Record<string, unknown>) {
  const res = rememberLocationLink(await s.api('POST', '/api/cases', { token: operator, body: casePayload(undefined, { status: 'pending', ...extra }) }));
  return res;
}
/** POST /live-location with an ambulance, so the patient's link can share. */
async function createActive(ambulanceId: number, intake: unknown) {
  return expectStatus(await dispatch(s, operator, ambulanceId, { intake_location: intake }), 201, 'dispatch').body.caseId as string;
}
const getCase = async (id: string) => expectStatus(await s.api('GET', `/api/cases/${id}`, { token: operator }), 200, 'get').body.case;
const share = async (id: string, p: { latitude: number; longitude: number; accuracy?: number }) =>
  expectStatus(await shareLocation(s, id, p), 200, 'share');
/** Frees an ambulance again: resolving the case releases it. */
const resolve = async (id: string) => expectStatus(await updateCase(s, operator, id, { status: 'resolved' }), 200, 'resolve');

describe('taking a location at intake', () => {
  it('POST /api/cases stores it and answers it as the best known location', async () => {
    const res = await createPending({ intake_location: CHARMINAR });
    expect(res.status).toBe(201);
    const dto = res.body.case;
    expect(dto).toMatchObject({
      latitude: CHARMINAR.latitude, longitude: CHARMINAR.longitude, location_source: 'intake',
      intake_location: CHARMINAR, patient_location: null, location_mismatch_m: null,
      wkb: pointWkb(CHARMINAR.latitude, CHARMINAR.longitude),
    });
    expect(await caseRow(s, dto.id)).toMatchObject({
      intake_latitude: CHARMINAR.latitude, intake_longitude: CHARMINAR.longitude, intake_address: CHARMINAR.address, intake_source: 'address',
      latitude: null, longitude: null, location_at: null,
    });
    expect(await getCase(dto.id)).toMatchObject({ intake_location: CHARMINAR, location_source: 'intake' });
    const [created] = await caseEvents(s, dto.id);
    expect(JSON.parse(created.after)).toMatchObject({ intake_latitude: CHARMINAR.latitude, intake_longitude: CHARMINAR.longitude, intake_address: CHARMINAR.address, intake_source: 'address' });
  });

  it('POST /live-location stores it too (a plus code, its place text as the operator saw it)', async () => {
    const intake = { latitude: 17.402188, longitude: 78.437187, address: '7J9WCC2P+VV Hyderabad', source: 'plus_code' };
    const id = await createActive(1, intake);
    expect(await getCase(id)).toMatchObject({ latitude: intake.latitude, longitude: intake.longitude, location_source: 'intake', intake_location: intake });
    await resolve(id);
  });

  it('is optional: a case without one has no location at all', async () => {
    const res = await createPending({});
    expect(res.status).toBe(201);
    expect(res.body.case).toMatchObject({ latitude: null, longitude: null, location_source: null, intake_location: null, patient_location: null, wkb: null });
    const nulled = await createPending({ intake_location: null });
    expect(nulled.body.case).toMatchObject({ intake_location: null, location_source: null });
  });

  it('refuses bad input with 400 naming the field, and stores nothing', async () => {
    const bad: [string, unknown][] = [
      ['latitude out of range', { ...CHARMINAR, latitude: 91 }],
      ['longitude out of range', { ...CHARMINAR, longitude: -180.5 }],
      ['latitude not a number', { ...CHARMINAR, latitude: '17.36' }],
      ['empty address', { ...CHARMINAR, address: '' }],
      ['blank address', { ...CHARMINAR, address: '   ' }],
      ['address with a line break', { ...CHARMINAR, address: 'Charminar\nHyderabad' }],
      ['address too long', { ...CHARMINAR, address: 'a'.repeat(501) }],
      ['unknown source', { ...CHARMINAR, source: 'gps' }],
      ['no source', { latitude: 17.36, longitude: 78.47, address: 'x' }],
      ['no coordinates', { address: 'Charminar', source: 'address' }],
      ['not an object', 'Charminar'],
    ];
    const before = await writeCounts(s);
    for (const [what, intake] of bad) {
      for (const path of ['/api/cases', '/live-location']) {
        const res = await s.api('POST', path, { token: operator, body: casePayload(undefined, { status: 'pending', intake_location: intake }) });
        expect({ what, path, status: res.status, error: res.body.error }).toEqual({ what, path, status: 400, error: expect.stringMatching(/^intake_location/) });
      }
    }
    expect(await writeCounts(s)).toEqual(before);
  });
});

describe("beside the patient's shared location", () => {
  it("an accurate share becomes the best known location; the intake one stays, and a distance over 300 m is flagged", async () => {
    const id = await createActive(2, CHARMINAR);
    await share(id, { ...ABIDS, accuracy: 12 });
    const dto = await getCase(id);
    const apart = Math.round(distanceMeters(CHARMINAR, ABIDS));
    expect(apart).toBeGreaterThan(LOCATION_MISMATCH_M);
    expect(dto).toMatchObject({
      latitude: ABIDS.latitude, longitude: ABIDS.longitude, location_source: 'patient',
      intake_location: CHARMINAR, patient_location: { ...ABIDS, accuracy: 12 }, location_mismatch_m: apart,
    });
    expect(await caseRow(s, id)).toMatchObject({ intake_latitude: CHARMINAR.latitude, intake_address: CHARMINAR.address });
    await resolve(id);
  });

  it(`a rough share (accuracy over ${ACCURATE_FIX_M} m) leaves the intake location the best known one`, async () => {
    const id = await createActive(3, CHARMINAR);
    await share(id, { ...ABIDS, accuracy: ACCURATE_FIX_M + 400 });
    expect(await getCase(id)).toMatchObject({
      latitude: CHARMINAR.latitude, longitude: CHARMINAR.longitude, location_source: 'intake',
      patient_location: { ...ABIDS, accuracy: ACCURATE_FIX_M + 400 }, location_mismatch_m: Math.round(distanceMeters(CHARMINAR, ABIDS)),
    });
    await resolve(id);
  });

  it('two locations close together are no mismatch', async () => {
    const id = await createActive(4, CHARMINAR);
    await share(id, { ...NEAR_CHARMINAR, accuracy: 8 });
    expect(await getCase(id)).toMatchObject({ location_source: 'patient', latitude: NEAR_CHARMINAR.latitude, location_mismatch_m: null });
    await resolve(id);
  });
});

describe('editing it', () => {
  it('PUT changes it and clears it (null), and the timeline records each change', async () => {
    const id = (await createPending({ intake_location: CHARMINAR })).body.case.id;
    const moved = { latitude: 17.4, longitude: 78.45, address: '17.4, 78.45', source: 'coordinates' };
    const changed = expectStatus(await updateCase(s, operator, id, { intake_location: moved }), 200, 'change').body.case;
    expect(changed).toMatchObject({ latitude: 17.4, longitude: 78.45, location_source: 'intake', intake_location: moved });

    const cleared = expectStatus(await updateCase(s, operator, id, { intake_location: null }), 200, 'clear').body.case;
    expect(cleared).toMatchObject({ latitude: null, longitude: null, location_source: null, intake_location: null, wkb: null });
    expect(await caseRow(s, id)).toMatchObject({ intake_latitude: null, intake_longitude: null, intake_address: null, intake_source: null });

    const updates = (await caseEvents(s, id)).filter((e) => e.action === 'updated');
    expect(updates.map((e) => [JSON.parse(e.before), JSON.parse(e.after)])).toEqual([
      [
        { intake_latitude: CHARMINAR.latitude, intake_longitude: CHARMINAR.longitude, intake_address: CHARMINAR.address, intake_source: 'address' },
        { intake_latitude: 17.4, intake_longitude: 78.45, intake_address: '17.4, 78.45', intake_source: 'coordinates' },
      ],
      [
        { intake_latitude: 17.4, intake_longitude: 78.45, intake_address: '17.4, 78.45', intake_source: 'coordinates' },
        { intake_latitude: null, intake_longitude: null, intake_address: null, intake_source: null },
      ],
    ]);
  });

  it('leaves it alone when an edit does not name it, and records nothing when it is sent unchanged', async () => {
    const id = (await createPending({ intake_location: CHARMINAR })).body.case.id;
    const edited = expectStatus(await updateCase(s, operator, id, { description: 'Chest pain, conscious' }), 200, 'edit').body.case;
    expect(edited.intake_location).toEqual(CHARMINAR);
    const entries = (await caseEvents(s, id)).length;
    const same = expectStatus(await updateCase(s, operator, id, { intake_location: CHARMINAR }), 200, 'same').body.case;
    expect(same.version).toBe(edited.version);
    expect((await caseEvents(s, id)).length).toBe(entries);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const id = (await createPending({ intake_location: CHARMINAR })).body.case.id;
    const row = await caseRow(s, id);
    const entries = (await caseEvents(s, id)).length;
    for (const intake of [{ ...CHARMINAR, latitude: -90.01 }, { ...CHARMINAR, address: '' }, { ...CHARMINAR, source: 'satellite' }, {}]) {
      const res = await updateCase(s, operator, id, { intake_location: intake, description: 'would change too' });
      expect({ intake, status: res.status, error: res.body.error }).toEqual({ intake, status: 400, error: expect.stringMatching(/^intake_location/) });
    }
    expect(await caseRow(s, id)).toEqual(row);
    expect((await caseEvents(s, id)).length).toBe(entries);
  });
});

describe("the driver's link", () => {
  it('sees the intake location as the destination until the patient shares; the viewer link too, without the place text', async () => {
    const id = await createActive(5, CHARMINAR);
    const { viewer, driver } = await trackingTokens(s, operator, id, 5);
    const track = (t: string) => s.api('GET', `/api/track/5?t=${t}`);

    const asDriver = expectStatus(await track(driver), 200, 'driver').body;
    expect(asDriver).toMatchObject({ role: 'driver', patient: null });
    expect(asDriver.destination).toEqual({ latitude: CHARMINAR.latitude, longitude: CHARMINAR.longitude, source: 'intake', address: CHARMINAR.address });
    const asViewer = expectStatus(await track(viewer), 200, 'viewer').body;
    expect(asViewer).toMatchObject({ role: 'viewer', patient: null });
    // The tracking page estimates to it (contract arrivalEstimate); the address given stays the crew's.
    expect(asViewer.destination).toEqual({ latitude: CHARMINAR.latitude, longitude: CHARMINAR.longitude, source: 'intake', address: null });

    await share(id, { ...ABIDS, accuracy: 10 });
    const afterShare = expectStatus(await track(driver), 200, 'driver').body;
    expect(afterShare.destination).toEqual({ latitude: ABIDS.latitude, longitude: ABIDS.longitude, source: 'patient', address: null });
    expect(afterShare.patient).toMatchObject({ ...ABIDS, accuracy: 10 });
    expect(expectStatus(await track(viewer), 200, 'viewer').body.destination).toEqual(afterShare.destination);
    await resolve(id);
  });

  it('has no destination when nothing is known', async () => {
    const id = await createActive(6, null);
    const { driver } = await trackingTokens(s, operator, id, 6);
    expect(expectStatus(await s.api('GET', `/api/track/6?t=${driver}`), 200, 'driver').body).toMatchObject({ patient: null, destination: null });
    await resolve(id);
  });
});
