import Database from 'better-sqlite3';
import { openDatabase } from '../../../db/connection';
import { auditRepository } from '../../../db/repositories/auditRepository';
import type { ReceivedMail } from '../../testing/smtpListener';
import { checkInvariants } from '../invariants';
import type { Ack, CrashClient } from './client';
import type { CrashFigures } from './figures';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` on a connection of its own to the file (the server may be gone; its file stays). */
async function withDb<T>(dbPath: string, fn: (db: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const db = openDatabase(dbPath);
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

/** `PRAGMA integrity_check` on the file, read-only. */
function integrityProblems(dbPath: string, figures: CrashFigures): string[] {
  const raw = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const integrity = raw.pragma('integrity_check', { simple: true });
    figures.integrityChecks += 1;
    return integrity === 'ok' ? [] : [`integrity_check: ${String(integrity)}`];
  } finally {
    raw.close();
  }
}

/** Every acknowledged write is there; answers the problems and how many acks were verified. */
async function ackProblems(db: ReturnType<typeof openDatabase>, acks: Ack[]): Promise<{ problems: string[]; verified: number }> {
  const problems: string[] = [];
  const cases = new Map((await auditRepository.cases(db)).map((c) => [c.id, c]));
  const events = await auditRepository.caseEvents(db);
  const created = new Set(events.filter((e) => e.action === 'created').map((e) => e.case_id));
  const tracking = new Set(events.filter((e) => e.action === 'tracking').map((e) => e.case_id));
  const shared = new Set(events.filter((e) => e.action === 'location').map((e) => {
    const a = JSON.parse(e.after ?? 'null') as { latitude: number; longitude: number };
    return `${e.case_id}:${a.latitude}:${a.longitude}`;
  }));
  const positions = new Set((await auditRepository.positionPoints(db)).map((p) => `${p.ambulance_id}:${p.latitude}:${p.longitude}`));
  const shareMails = new Map<string, number>();
  for (const m of await auditRepository.outboxStates(db)) if (m.kind === 'share-location' && m.case_id) shareMails.set(m.case_id, (shareMails.get(m.case_id) ?? 0) + 1);
  const assignments = new Map((await auditRepository.assignments(db)).map((a) => [Number(a.id), a as unknown as Record<string, string | null>]));
  const lastStatus = new Map<string, Ack & { kind: 'status' }>();
  let verified = 0;
  for (const a of acks) {
    const before = problems.length;
    switch (a.kind) {
      case 'dispatch':
        if (!cases.has(a.caseId)) problems.push(`acknowledged dispatch ${a.caseId} is missing`);
        if (!created.has(a.caseId)) problems.push(`acknowledged dispatch ${a.caseId} has no 'created' entry`);
        if (shareMails.get(a.caseId) !== 1) problems.push(`acknowledged dispatch ${a.caseId} has ${shareMails.get(a.caseId) ?? 0} share-location e-mails`);
        break;
      case 'status': {
        const row = cases.get(a.caseId);
        if (!row || Number(row.version) < a.version) problems.push(`acknowledged ${a.status} of ${a.caseId} (version ${a.version}) is missing`);
        if (!lastStatus.has(a.caseId) || lastStatus.get(a.caseId)!.version < a.version) lastStatus.set(a.caseId, a);
        break;
      }
      case 'position':
        if (!positions.has(`${a.ambulanceId}:${a.latitude}:${a.longitude}`)) problems.push(`acknowledged position of ambulance ${a.ambulanceId} is missing`);
        break;
      case 'share':
        if (!shared.has(`${a.caseId}:${a.latitude}:${a.longitude}`)) problems.push(`acknowledged location share of ${a.caseId} is missing`);
        break;
      case 'tracking':
        if (!tracking.has(a.caseId)) problems.push(`acknowledged tracking of ${a.caseId} is missing`);
        break;
      case 'unitAdded': {
        const row = assignments.get(a.assignmentId);
        if (!row || row.case_id !== a.caseId || Number(row.ambulance_id) !== a.ambulanceId) problems.push(`acknowledged unit ${a.ambulanceId} added to ${a.caseId} (assignment ${a.assignmentId}) is ${row ? 'another' : 'missing'}`);
        break;
      }
      case 'unitStatus': {
        const row = assignments.get(a.assignmentId);
        if (!row || row[`${a.step}_at`] !== a.at) problems.push(`acknowledged ${a.step} of assignment ${a.assignmentId} at ${a.at} is ${row ? row[`${a.step}_at`] : 'missing'}`);
        break;
      }
    }
    if (problems.length === before) verified += 1;
  }
  for (const a of lastStatus.values()) {
    const row = cases.get(a.caseId);
    if (row && Number(row.version) === a.version && row.status !== a.status) problems.push(`case ${a.caseId} at version ${a.version} is ${row.status}, acknowledged as ${a.status}`);
  }
  return { problems, verified };
}

/** E-mail: never delivered more often than claimed for sending; when `final`, every one delivered. */
async function mailProblems(db: ReturnType<typeof openDatabase>, received: ReceivedMail[], figures: CrashFigures, final: boolean): Promise<string[]> {
  const problems: string[] = [];
  const delivered = new Map<number, number>();
  const messageIds = new Map<number, Set<string>>();
  for (const m of received) {
    const id = Number(m.headers['x-lifeline-outbox-id']);
    delivered.set(id, (delivered.get(id) ?? 0) + 1);
    messageIds.set(id, (messageIds.get(id) ?? new Set()).add(m.headers['message-id'] ?? ''));
  }
  const outbox = await auditRepository.outboxStates(db);
  const ids = new Set(outbox.map((m) => Number(m.id)));
  for (const id of delivered.keys()) if (!ids.has(id)) problems.push(`a mail with unknown outbox id ${id} was delivered`);
  let duplicates = 0;
  let interrupted = 0;
  for (const m of outbox) {
    const n = delivered.get(Number(m.id)) ?? 0;
    if (n > Number(m.attempts)) problems.push(`outbox ${m.id} was delivered ${n} times but claimed ${m.attempts} times`);
    if (n > 1) duplicates += n - 1;
    // A copy sent again is recognisably the same message (receivers dedupe by Message-ID).
    if (n > 1 && messageIds.get(Number(m.id))!.size !== 1) problems.push(`outbox ${m.id} was delivered with ${messageIds.get(Number(m.id))!.size} different Message-IDs`);
    if (Number(m.attempts) > 1) interrupted += 1;
    if (final) {
      if (m.status !== 'sent') problems.push(`outbox ${m.id} is ${m.status} after the drain`);
      if (n === 0) problems.push(`outbox ${m.id} was never delivered`);
      if (n > 1 && Number(m.attempts) < 2) problems.push(`outbox ${m.id} was delivered ${n} times without an interrupted send`);
    }
  }
  figures.mailsQueued = outbox.length;
  figures.mailsDelivered = received.length;
  figures.mailDuplicates = duplicates;
  figures.mailsInterrupted = interrupted;
  return problems;
}

/**
 * Everything checked after a restart: the file is sound, the invariants hold, every
 * acknowledged write is there, the e-mail counts add up. Problems go to figures.violations.
 */
export async function audit(dbPath: string, client: CrashClient, received: ReceivedMail[], figures: CrashFigures, final: boolean): Promise<string[]> {
  const problems = integrityProblems(dbPath, figures);
  await withDb(dbPath, async (db) => {
    const report = await checkInvariants(db);
    figures.invariantChecks += 1;
    problems.push(...report.violations);
    const acks = await ackProblems(db, client.acks);
    problems.push(...acks.problems);
    figures.verified = acks.verified;
    problems.push(...(await mailProblems(db, received, figures, final)));
  });
  figures.violations.push(...problems);
  return problems;
}

/** Dispatches whose answer was lost in the kill are retried with their key: never doubled, never lost. */
export async function retryInDoubt(dbPath: string, client: CrashClient, figures: CrashFigures) {
  const pending = client.inDoubt;
  client.inDoubt = [];
  await withDb(dbPath, async (db) => {
    for (const d of pending) {
      const existing = await auditRepository.caseIdsDescribed(db, d.marker);
      const res = await client.dispatch(d.key, d.body, d.marker);
      figures.inDoubtDispatchesRetried += 1;
      const after = await auditRepository.caseIdsDescribed(db, d.marker);
      if (existing.length > 1 || after.length > 1) figures.violations.push(`dispatch ${d.key} was written ${after.length} times`);
      if (existing.length === 1) {
        figures.inDoubtFoundCommitted += 1;
        if (res.status !== 201 || !res.replayed || res.body.caseId !== existing[0]) {
          figures.violations.push(`dispatch ${d.key} committed before the kill, but its retry answered ${res.status} ${JSON.stringify(res.body)}`);
        }
      } else if (res.status === 201 ? after.length !== 1 : after.length !== 0) {
        figures.violations.push(`dispatch ${d.key} retried: ${res.status} with ${after.length} cases`);
      }
    }
  });
}

/** Waits while the outbox drains and progresses (the listener takes ~0.1 s a message), at most 10 minutes. */
export async function drainOutbox(dbPath: string, log: (line: string) => void) {
  await withDb(dbPath, async (db) => {
    const deadline = Date.now() + 600_000;
    let left = await auditRepository.outboxUnsent(db);
    let progressed = Date.now();
    if (left > 0) log(`[crash] draining the outbox: ${left} messages`);
    while (left > 0 && Date.now() < deadline && Date.now() - progressed < 20_000) {
      await sleep(200);
      const now = await auditRepository.outboxUnsent(db);
      if (now < left) progressed = Date.now();
      left = now;
    }
  });
}
