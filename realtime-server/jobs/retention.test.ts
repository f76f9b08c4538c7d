import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { caseEventRepository } from '../../db/repositories/caseEventRepository';
import { caseRepository } from '../../db/repositories/caseRepository';
import { checkInvariants } from '../reliability/invariants';
import { dbSnapshot } from '../testing/assertions';
import { PUBLIC_URL, dispatchCase, expectStatus, initiateTracking, locationToken, tokenInLink, updateCase, shareLocation } from '../testing/dispatchHelpers';
import { outboxRepository } from '../../db/repositories/outboxRepository';
import { presentPrealert } from '../presenters/presentHospital';
import type { DomainEvent } from '../services/events';
import { mailTemplates } from '../services/mailTemplates';
import { signedInStaff, startTestServer, type TestServer, useTestServer } from '../testing/testServer';
import { REDACTED, SCAN_PAGE, runRetention, startRetentionJob } from './retention';
import { waitFor } from '../testing/wait';

/**
 * Retention: patient positions and ambulance position history are deleted
 * RETENTION_DAYS (default 30) after their case was closed or resolved (or deleted), by a job
 * that runs at start and hourly. Rows are backdated to put them on either side of the line.
 */
const DAY = 24 * 3600_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

const s = useTestServer({ env: { RETENTION_DAYS: '30', SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' } });
const staff = signedInStaff(s);

const share = async (caseId: string, latitude: number, longitude: number) =>
  expectStatus(await shareLocation(s, caseId, { latitude, longitude, accuracy: 7 }), 200, 'share');

/** A case on `ambulance` with two shared positions, then (optionally) ended and backdated: created `createdDaysAgo`, ended `endedDaysAgo`. */
async function located(ambulance: number, end: 'closed' | 'resolved' | 'pending' | 'active' | 'deleted', createdDaysAgo: number, endedDaysAgo?: number) {
  const id = await dispatchCase(s, staff.operator, ambulance);
  await share(id, 17.401, 78.401);
  await share(id, 17.402, 78.402);
  if (end === 'deleted') {
    expectStatus(await s.api('DELETE', `/api/cases/${id}`, { token: staff.admin }), 200, 'delete');
    await s.ctx.db('case_events').where({ case_id: id, action: 'deleted' }).update({ created_at: ago(endedDaysAgo!) });
    return id;
  }
  if (end !== 'active') expectStatus(await updateCase(s, staff.operator, id, { status: end }), 200, end);
  // As if it had happened then: the row and its timeline agree on the times.
  const ended = endedDaysAgo === undefined ? undefined : ago(endedDaysAgo);
  await s.ctx.db('cases').where({ id }).update({ created_at: ago(createdDaysAgo), ...(ended === undefined ? {} : { closed_at: ended }) });
  if (ended !== undefined) {
    const closing = await s.ctx.db('case_events').where({ case_id: id, action: 'updated' }).orderBy('id', 'desc').first();
    await s.ctx.db('case_events').where({ id: closing.id }).update({ created_at: ended, after: JSON.stringify({ ...JSON.parse(closing.after), closed_at: ended }) });
  }
  return id;
}

const caseRow = (id: string) => s.ctx.db('cases').where({ id }).first();
const timeline = (id: string) => s.ctx.db('case_events').where({ case_id: id }).orderBy('id');
const position = (ambulance: number, daysAgo: number) => ({
  ambulance_id: ambulance, latitude: 17.3, longitude: 78.3, accuracy: null, heading: null, speed: null,
  recorded_at: ago(daysAgo), received_at: ago(daysAgo), source: 'driver',
});

describe('runRetention', () => {
  const c: Record<string, string> = {};
  const p: Record<string, number> = {};

  beforeAll(async () => {
    c.closedLong = await located(1, 'closed', 45, 31);
    c.resolvedLong = await located(2, 'resolved', 45, 31);
    c.closedRecently = await located(3, 'closed', 38, 29);
    c.activeOld = await located(4, 'active', 60);
    c.pendingOld = await located(5, 'pending', 60);
    c.deletedLong = await located(6, 'deleted', 45, 31);
    c.deletedRecently = await located(7, 'deleted', 10, 5);
    const insert = async (name: string, row: ReturnType<typeof position>) => {
      const [r] = await s.ctx.db('ambulance_positions').insert(row).returning('id');
      p[name] = typeof r === 'object' ? r.id : r;
    };
    await insert('noCaseOld', position(8, 40)); // deleted
    await insert('duringLongClosed', position(1, 40)); // during closedLong (45 → 31 days ago): deleted
    await insert('duringRecentlyClosed', position(3, 35)); // during closedRecently (38 → 29): kept
    await insert('beforeRecentlyClosed', position(3, 40)); // before closedRecently was created: deleted
    await insert('duringActive', position(4, 50)); // during activeOld: kept
    // pendingOld went back to the queue: a waiting call holds no ambulance (as a diverted one), so this is nobody's call's: deleted.
    await insert('duringPending', position(5, 50));
    await insert('recent', position(8, 10)); // younger than the retention: kept
    await s.ctx.db('geocode_cache').insert([
      { key: '17.40100,78.40100', display_name: 'Old Street', created_at: ago(31) },
      { key: '17.50000,78.50000', display_name: 'New Street', created_at: ago(1) },
    ]);
  });

  it('clears the patient position of cases closed or resolved more than RETENTION_DAYS ago, and says so on their timeline', async () => {
    const before = { recently: await caseRow(c.closedRecently), active: await caseRow(c.activeOld), pending: await caseRow(c.pendingOld) };
    // The queued e-mails whose links no longer work lose their tokens (the outbox describe below): every one of a
    // case that ended or is gone; of a waiting (pending) case only the crew's tracking mail, since its location link still shares.
    const deadLinks = Number((await s.ctx.db('outbox').whereNotNull('body_redacted').whereNot('case_id', c.activeOld)
      .whereNot((q) => q.where({ case_id: c.pendingOld, kind: 'share-location' })).count({ n: '*' }).first())!.n);
    const result = await runRetention(s.ctx);
    expect(result).toEqual({ casesCleared: 2, entriesRedacted: 2 * 2 + 2 + 1, prealertsRedacted: 0, positionsDeleted: 4, placesDeleted: 1, searchesDeleted: 0, outboxRedacted: deadLinks, outboxDeleted: 0 });
    const pendingMails = await s.ctx.db('outbox').where({ case_id: c.pendingOld }).orderBy('id');
    expect(pendingMails.map((m) => [m.kind, m.body_redacted != null])).toEqual([['tracking-driver', false], ['share-location', true]]);
    expect(pendingMails[1].body_text).toContain(`/location/${c.pendingOld}?t=${await locationToken(s, c.pendingOld)}`);
    for (const id of [c.closedLong, c.resolvedLong]) {
      const row = await caseRow(id);
      expect(row).toMatchObject({ latitude: null, longitude: null, location_accuracy: null, location_at: null });
      const entries = await timeline(id);
      expect(entries.at(-1)).toMatchObject({ action: 'location.redacted', actor_type: 'system', actor_id: null, before: null });
      expect(JSON.parse(entries.at(-1).after)).toEqual({ reason: 'retention: closed more than 30 days ago' });
    }
    // On the other side of the line: unchanged, row for row.
    expect(await caseRow(c.closedRecently)).toEqual(before.recently);
    expect(await caseRow(c.activeOld)).toEqual(before.active);
    expect(await caseRow(c.pendingOld)).toEqual(before.pending);
  });

  it("keeps that a share happened and when, without its coordinates, in the cleared cases' timelines", async () => {
    for (const id of [c.closedLong, c.resolvedLong, c.deletedLong]) {
      const shares = (await timeline(id)).filter((e) => e.action === 'location');
      expect(shares).toHaveLength(2);
      expect(shares.map((e) => [e.actor_type, e.before && JSON.parse(e.before), JSON.parse(e.after)]))
        .toEqual([['patient', null, REDACTED], ['patient', REDACTED, REDACTED]]);
      for (const e of shares) expect(e.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    for (const id of [c.closedRecently, c.activeOld, c.pendingOld, c.deletedRecently]) {
      const shares = (await timeline(id)).filter((e) => e.action === 'location');
      expect(shares.map((e) => JSON.parse(e.after))).toEqual([
        { latitude: 17.401, longitude: 78.401, accuracy: 7 }, { latitude: 17.402, longitude: 78.402, accuracy: 7 },
      ]);
    }
  });

  it("a case deleted more than RETENTION_DAYS ago: the copy its 'deleted' entry keeps loses the coordinates too", async () => {
    const [old] = (await timeline(c.deletedLong)).filter((e) => e.action === 'deleted');
    expect(JSON.parse(old.before)).toMatchObject({ id: c.deletedLong, latitude: null, longitude: null, location_accuracy: null, location_updated_at: null, wkb: null, patientName: 'Pat Doe' });
    const [recent] = (await timeline(c.deletedRecently)).filter((e) => e.action === 'deleted');
    expect(JSON.parse(recent.before)).toMatchObject({ latitude: 17.402, longitude: 78.402, wkb: expect.any(String) });
  });

  it('deletes ambulance position history older than RETENTION_DAYS unless a case it belongs to is open or closed more recently', async () => {
    const left = new Set(await s.ctx.db('ambulance_positions').pluck('id'));
    const kept = Object.entries(p).filter(([, id]) => left.has(id)).map(([name]) => name).sort();
    expect(kept).toEqual(['duringActive', 'duringRecentlyClosed', 'recent']);
  });

  it('deletes place names cached for coordinates that long ago', async () => {
    expect(await s.ctx.db('geocode_cache').orderBy('key').pluck('display_name')).toEqual(['New Street']);
  });

  it('is idempotent: a second pass changes nothing', async () => {
    const before = await dbSnapshot(s.ctx.db);
    expect(await runRetention(s.ctx)).toEqual({ casesCleared: 0, entriesRedacted: 0, prealertsRedacted: 0, positionsDeleted: 0, placesDeleted: 0, searchesDeleted: 0, outboxRedacted: 0, outboxDeleted: 0 });
    expect(await dbSnapshot(s.ctx.db)).toEqual(before);
  });

  it('leaves the data consistent: the timeline still replays to every case (reliability invariants)', async () => {
    expect((await checkInvariants(s.ctx.db)).violations).toEqual([]);
  });

  it('passes running at once (several nodes) clear and record each case once', async () => {
    const a = await located(2, 'closed', 50, 40);
    const b = await located(3, 'resolved', 50, 33);
    const results = await Promise.all([runRetention(s.ctx), runRetention(s.ctx), runRetention(s.ctx)]);
    expect(results.reduce((n, r) => n + r.casesCleared, 0)).toBe(2);
    for (const id of [a, b]) {
      expect((await timeline(id)).filter((e) => e.action === 'location.redacted')).toHaveLength(1);
      expect(await caseRow(id)).toMatchObject({ latitude: null, location_at: null });
    }
  });

  it('honours RETENTION_DAYS: with 60 days, a case closed 40 days ago keeps its position', async () => {
    const id = await located(6, 'closed', 50, 40);
    expect(await runRetention({ ...s.ctx, config: { ...s.ctx.config, retentionDays: 60 } })).toMatchObject({ casesCleared: 0 });
    expect(Number((await caseRow(id)).latitude)).toBe(17.402);
    await runRetention(s.ctx);
    expect((await caseRow(id)).latitude).toBeNull();
  });
});

describe('a cleared case, as clients see it', () => {
  /** Runs `work` while listening to the bus; answers the 'case.updated' events heard for `caseId`. */
  async function caseUpdatesDuring(caseId: string, work: () => Promise<unknown>) {
    const heard: DomainEvent[] = [];
    const off = s.ctx.bus.subscribe((e) => heard.push(e));
    try {
      await work();
    } finally {
      off();
    }
    return heard.filter((e) => e.type === 'case.updated' && e.case.id === caseId);
  }

  it('moves its version on and tells staff (case.updated, without the position)', async () => {
    const id = await located(1, 'closed', 50, 40);
    const before = await caseRow(id);
    const updates = await caseUpdatesDuring(id, () => runRetention(s.ctx));
    const after = await caseRow(id);
    expect(after.version).toBe(before.version + 1);
    expect(after.updated_at).not.toBe(before.updated_at);
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ case: { id, version: after.version, latitude: null, longitude: null, location_updated_at: null } });
  });

  it('all or nothing: when its timeline entry cannot be written, the case keeps its position and version, and nothing is published', async () => {
    const id = await located(1, 'closed', 50, 40);
    const before = await caseRow(id);
    const insert = vi.spyOn(caseEventRepository, 'insert').mockRejectedValueOnce(new Error('disk full'));
    try {
      const updates = await caseUpdatesDuring(id, () => expect(runRetention(s.ctx)).rejects.toThrow('disk full'));
      expect(updates).toEqual([]);
    } finally {
      insert.mockRestore();
    }
    expect(await caseRow(id)).toEqual(before);
    expect((await timeline(id)).filter((e) => e.action === 'location.redacted')).toEqual([]);
    await runRetention(s.ctx);
    expect(await caseRow(id)).toMatchObject({ latitude: null, location_at: null, version: before.version + 1 });
  });
});

describe('the outbox', () => {
  const o = useTestServer({ env: { RETENTION_DAYS: '30' } });
  let op: string;
  const ids: Record<string, number> = {};
  const row = (name: string) => o.ctx.db('outbox').where({ id: ids[name] }).first();
  const CODE = '482916';
  const queueCode = async (minutesAgo: number) => {
    const id = await outboxRepository.insert(o.ctx.db, mailTemplates.signinCode({ name: 'Operator', email: 'operator@lifeline.test' }, CODE, 10));
    const at = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    await o.ctx.db('outbox').where({ id }).update({ created_at: at(minutesAgo), next_attempt_at: at(minutesAgo), secrets_expire_at: at(minutesAgo - 10) });
    return id;
  };
  /** The tracking mails of a new case on `ambulance` (queued: no SMTP here) and their tokens. */
  const trackingMails = async (ambulance: number) => {
    const caseId = await dispatchCase(o, op, ambulance);
    expectStatus(await initiateTracking(o, op, caseId, ambulance), 200, 'tracking');
    const mails = await o.ctx.db('outbox').where({ case_id: caseId }).orderBy('id');
    const patient = mails.find((m) => m.kind === 'tracking-patient');
    return { caseId, id: patient.id as number, token: tokenInLink(patient.body_text, 'track', ambulance)!, mails };
  };
  let closed: Awaited<ReturnType<typeof trackingMails>>;
  let active: Awaited<ReturnType<typeof trackingMails>>;
  let deleted: Awaited<ReturnType<typeof trackingMails>>;

  beforeAll(async () => {
    op = await o.signIn('operator');
    const admin = await o.signIn('admin');
    closed = await trackingMails(1);
    active = await trackingMails(2);
    deleted = await trackingMails(3);
    expectStatus(await updateCase(o, op, closed.caseId, { status: 'closed' }), 200, 'close');
    expectStatus(await o.api('DELETE', `/api/cases/${deleted.caseId}`, { token: admin }), 200, 'delete');
    ids.codeExpired = await queueCode(11);
    ids.codeLive = await queueCode(2);
    // Finished messages on either side of the line (sent: from when it was sent; failed: from when it was queued).
    const finished = async (name: string, status: 'sent' | 'failed', daysAgo: number) => {
      ids[name] = await outboxRepository.insert(o.ctx.db, { kind: 'share-location', to: `${name}@example.com`, subject: name, text: name, links: [] });
      await o.ctx.db('outbox').where({ id: ids[name] }).update({ status, created_at: ago(daysAgo + 1), sent_at: status === 'sent' ? ago(daysAgo) : null });
    };
    await finished('sentOld', 'sent', 31);
    await finished('sentRecently', 'sent', 29);
    await finished('failedOld', 'failed', 31);
    await finished('failedRecently', 'failed', 20);
    ids.queuedOld = await outboxRepository.insert(o.ctx.db, { kind: 'share-location', to: 'queued@example.com', subject: 'queued', text: 'queued', links: [] });
    await o.ctx.db('outbox').where({ id: ids.queuedOld }).update({ created_at: ago(60), next_attempt_at: ago(60) });
  });

  it('deletes messages sent or failed more than RETENTION_DAYS ago; keeps recent ones and every queued one; redacts queued secrets that no longer work', async () => {
    const closedMails = closed.mails.length + deleted.mails.length;
    const result = await runRetention(o.ctx);
    expect(result).toMatchObject({ outboxDeleted: 2, outboxRedacted: closedMails + 1 });
    expect(await row('sentOld')).toBeUndefined();
    expect(await row('failedOld')).toBeUndefined();
    for (const name of ['sentRecently', 'failedRecently', 'queuedOld']) expect(await row(name)).toBeDefined();
    expect(await row('queuedOld')).toMatchObject({ status: 'queued' });
  });

  it('a queued sign-in code past its 10 minutes loses the code; one still valid keeps it', async () => {
    const expired = await row('codeExpired');
    expect(expired).toMatchObject({ status: 'queued', body_redacted: null, links_redacted: null, secrets_expire_at: null });
    expect(expired.body_text).toContain('Your Lifeline sign-in code is:\n\n    …\n');
    expect(expired.body_text).not.toContain(CODE);
    expect((await row('codeLive')).body_text).toContain(`    ${CODE}\n`);
  });

  it('the queued links of a closed or deleted case lose their tokens (the path stays); an active case keeps them', async () => {
    for (const dead of [closed, deleted]) {
      for (const m of await o.ctx.db('outbox').where({ case_id: dead.caseId })) {
        expect(m).toMatchObject({ status: 'queued', body_redacted: null, links_redacted: null });
        expect(`${m.body_text} ${m.links}`).not.toMatch(/[?&]t=[A-Za-z0-9_-]/);
      }
    }
    const [closedLink] = JSON.parse((await o.ctx.db('outbox').where({ id: closed.id }).first()).links);
    expect(closedLink).toBe(`${PUBLIC_URL}/track/1?t=…`);
    const live = await o.ctx.db('outbox').where({ id: active.id }).first();
    expect(JSON.parse(live.links)).toEqual([`${PUBLIC_URL}/track/2?t=${active.token}`]);
    expect(live.body_text).toContain(active.token);
    // What the admin reads is what is stored.
    const listed = (await o.api('GET', '/api/outbox', { token: await o.signIn('admin') })).body.messages;
    expect(listed.find((m: any) => m.id === closed.id).links).toEqual([`${PUBLIC_URL}/track/1?t=…`]);
    expect(listed.find((m: any) => m.id === active.id).links).toEqual([`${PUBLIC_URL}/track/2?t=${active.token}`]);
  });

  it('is idempotent: a second pass changes nothing', async () => {
    const before = await dbSnapshot(o.ctx.db);
    expect(await runRetention(o.ctx)).toMatchObject({ outboxDeleted: 0, outboxRedacted: 0 });
    expect(await dbSnapshot(o.ctx.db)).toEqual(before);
  });

  it('passes running at once delete and redact each message once', async () => {
    const again = await trackingMails(4);
    expectStatus(await updateCase(o, op, again.caseId, { status: 'resolved' }), 200, 'resolve');
    const id = await outboxRepository.insert(o.ctx.db, { kind: 'share-location', to: 'x@example.com', subject: 'x', text: 'x', links: [] });
    await o.ctx.db('outbox').where({ id }).update({ status: 'sent', sent_at: ago(45) });
    const results = await Promise.all([runRetention(o.ctx), runRetention(o.ctx), runRetention(o.ctx)]);
    expect(results.reduce((n, r) => n + r.outboxDeleted, 0)).toBe(1);
    expect(results.reduce((n, r) => n + r.outboxRedacted, 0)).toBe(again.mails.length);
  });
});

describe('pre-alerts', () => {
  const p = useTestServer({ env: { RETENTION_DAYS: '30', SIGNIN_LIMIT_IP: '100000', SIGNIN_LIMIT_ACCOUNT: '100000', LINK_LIMIT_PER_MIN: '100000' } });
  const ATMIST = { age: 54, sex: 'female', mechanism: 'Fall from a ladder', injuries: 'Open fracture, left leg', signs: { hr: 118, sbp: 96 }, treatment: 'Splint, morphine', requirements: 'Trauma team', activation: 'trauma' };
  let op: string;
  let hospitalId: number;
  const prealertsOf = (caseId: string) => p.ctx.db('prealerts').where({ case_id: caseId }).orderBy('id');

  /** A call on `ambulance` conveyed to the test hospital with `n` pre-alerts (the first acknowledged), ended `endedDaysAgo` (or still active). */
  async function conveyed(ambulance: number, n: number, endedDaysAgo: number | null, shared: boolean) {
    const id = await dispatchCase(p, op, ambulance);
    if (shared) expectStatus(await shareLocation(p, id, { latitude: 17.401, longitude: 78.401 }), 200, 'share');
    const assignmentId = (await p.ctx.db('assignments').where({ case_id: id }).first()).id as number;
    expectStatus(await p.api('POST', `/api/cases/${id}/assignments/${assignmentId}/destination`, { token: op, body: { hospital_id: hospitalId, reason: 'specialty' } }), 200, 'destination');
    for (let i = 0; i < n; i++) expectStatus(await p.api('POST', `/api/cases/${id}/assignments/${assignmentId}/prealert`, { token: op, body: ATMIST }), 201, 'prealert');
    await p.ctx.db('prealerts').where({ case_id: id }).orderBy('id').first().then((r) => p.ctx.db('prealerts').where({ id: r.id }).update({ acknowledged_at: new Date().toISOString() }));
    if (endedDaysAgo === null) return id;
    expectStatus(await updateCase(p, op, id, { status: 'closed' }), 200, 'close');
    // As if it had ended then: the row and its timeline agree on the time.
    const ended = ago(endedDaysAgo);
    await p.ctx.db('cases').where({ id }).update({ closed_at: ended });
    const closing = await p.ctx.db('case_events').where({ case_id: id, action: 'updated' }).orderBy('id', 'desc').first();
    await p.ctx.db('case_events').where({ id: closing.id }).update({ after: JSON.stringify({ ...JSON.parse(closing.after), closed_at: ended }) });
    return id;
  }

  const c: Record<string, string> = {};
  beforeAll(async () => {
    op = await p.signIn('operator');
    const admin = await p.signIn('admin');
    hospitalId = expectStatus(await p.api('POST', '/api/hospitals', { token: admin, body: { name: 'Trauma Centre', latitude: 17.41, longitude: 78.45, capabilities: ['trauma'] } }), 201, 'hospital').body.hospital.id;
    c.sharedLong = await conveyed(1, 2, 31, true); // its location and its two pre-alerts' content go
    c.unsharedLong = await conveyed(2, 1, 31, false); // no location to clear: its pre-alert's content goes all the same
    c.recent = await conveyed(3, 1, 29, true); // on this side of the line: kept
    c.active = await conveyed(4, 1, null, true); // still running: kept
  });

  it('takes the clinical content out of the pre-alerts of calls ended more than RETENTION_DAYS ago, with the location; times and activation stay', async () => {
    const before = { recent: await prealertsOf(c.recent), active: await prealertsOf(c.active), long: await prealertsOf(c.sharedLong) };
    const result = await runRetention(p.ctx);
    expect(result).toMatchObject({ casesCleared: 1, prealertsRedacted: 3 });
    for (const id of [c.sharedLong, c.unsharedLong]) {
      for (const row of await prealertsOf(id)) {
        expect(row).toMatchObject({ content: null, redacted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), activation: 'trauma', sent_at: expect.any(String) });
        expect(presentPrealert(row)).toMatchObject({
          redacted: true, age: null, sex: 'unknown', mechanism: '', injuries: '', treatment: '', requirements: '', activation: 'trauma',
          signs: { hr: null, sbp: null, rr: null, spo2: null, gcs: null, temp: null },
        });
      }
    }
    // The times the handover report reads are kept, acknowledged or not.
    expect((await prealertsOf(c.sharedLong)).map((r) => [r.sent_at, r.acknowledged_at])).toEqual(before.long.map((r) => [r.sent_at, r.acknowledged_at]));
    expect(await p.ctx.db('cases').where({ id: c.sharedLong }).first()).toMatchObject({ latitude: null, location_at: null });
    // On the other side of the line, or still running: unchanged, row for row.
    expect(await prealertsOf(c.recent)).toEqual(before.recent);
    expect(await prealertsOf(c.active)).toEqual(before.active);
    expect(JSON.parse((await prealertsOf(c.recent))[0].content)).toMatchObject({ age: 54, mechanism: 'Fall from a ladder' });
    // No timeline entry keeps the clinical content either.
    for (const id of [c.sharedLong, c.unsharedLong]) {
      for (const e of await p.ctx.db('case_events').where({ case_id: id })) expect(`${e.before} ${e.after}`).not.toMatch(/ladder|fracture|morphine/i);
    }
    expect((await checkInvariants(p.ctx.db)).violations).toEqual([]);
  });

  it('is idempotent, and passes running at once redact each pre-alert once', async () => {
    const snapshot = await dbSnapshot(p.ctx.db);
    expect(await runRetention(p.ctx)).toMatchObject({ prealertsRedacted: 0 });
    expect(await dbSnapshot(p.ctx.db)).toEqual(snapshot);
    const again = await conveyed(5, 2, 40, false);
    const results = await Promise.all([runRetention(p.ctx), runRetention(p.ctx), runRetention(p.ctx)]);
    expect(results.reduce((n, r) => n + r.prealertsRedacted, 0)).toBe(2);
    for (const row of await prealertsOf(again)) expect(row.content).toBeNull();
  });
});

describe('a year of ended calls', () => {
  it('is read a page of SCAN_PAGE at a time, and every case still holding a location is cleared, on every page', async () => {
    const template = await caseRow(await located(2, 'closed', 50, 45));
    await runRetention(s.ctx);
    const { id: _id, search_rowid: _rowid, ...rest } = template;
    // Copies of an already cleared call, ended 40 days ago in order; three across the pages still hold a location.
    const n = 2 * SCAN_PAGE + 3;
    const holding = new Map([[0, { latitude: 17.4, longitude: 78.4, location_at: ago(41) }], [SCAN_PAGE + 7, { intake_address: '1 Old Road' }], [n - 1, { intake_latitude: 17.5, intake_longitude: 78.5 }]]);
    const rows = Array.from({ length: n }, (_, i) => ({
      ...rest, latitude: null, longitude: null, location_at: null, intake_address: null, intake_latitude: null, intake_longitude: null,
      id: randomUUID(), closed_at: new Date(Date.parse(ago(40)) + i * 1000).toISOString(), ...holding.get(i),
    }));
    for (let i = 0; i < rows.length; i += 100) await s.ctx.db('cases').insert(rows.slice(i, i + 100));
    const reads = vi.spyOn(caseRepository, 'endedBeforeHoldingLocation');
    try {
      expect(await runRetention(s.ctx)).toMatchObject({ casesCleared: 3 });
      // Never one read over every ended call: the pages, each bounded.
      expect(reads.mock.calls.length).toBeGreaterThanOrEqual(3);
      for (const call of reads.mock.calls) expect(call[3]).toBe(SCAN_PAGE);
    } finally {
      reads.mockRestore();
    }
    for (const i of holding.keys()) {
      expect(await caseRow(rows[i].id), `copy ${i}`).toMatchObject({ latitude: null, location_at: null, intake_address: null, intake_latitude: null });
    }
  });
});

describe('the retention job', () => {
  it('runs on a timer: rows that age past the line are cleared without a restart', async () => {
    const job = startRetentionJob(s.ctx, 50);
    try {
      await job.ready;
      const id = await located(5, 'closed', 50, 45);
      await waitFor(async () => (await caseRow(id)).location_at === null, 'the timer pass', 5000);
      expect((await timeline(id)).filter((e) => e.action === 'location.redacted')).toHaveLength(1);
    } finally {
      await job.stop();
    }
  });

  it('runs once when the server starts, before it takes requests', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-retention-'));
    const env = { DATABASE_URL: path.join(dir, 'db.sqlite'), RETENTION_DAYS: '30' };
    let first: TestServer | undefined = await startTestServer({ env });
    let second: TestServer | undefined;
    try {
      const token = await first.signIn('operator');
      const id = await dispatchCase(first, token, 1);
      expectStatus(await shareLocation(first, id, { latitude: 17.4, longitude: 78.4 }), 200, 'share');
      expectStatus(await updateCase(first, token, id, { status: 'closed' }), 200, 'close');
      await first.ctx.db('cases').where({ id }).update({ closed_at: ago(31) });
      await first.dispose();
      first = undefined;
      second = await startTestServer({ env });
      expect(await second.ctx.db('cases').where({ id }).first()).toMatchObject({ latitude: null, longitude: null, location_at: null });
    } finally {
      await first?.dispose();
      await second?.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
