import { createHash } from 'node:crypto';
import type { RouterContext } from '@koa/router';
import type { Context, Next } from 'koa';
import { isSqlite } from '../../../db/connection';
import { type IdempotencyRow, idempotencyRepository } from '../../../db/repositories/idempotencyRepository';
import type { ServiceContext, WriteHook } from '../../services/context';
import { DomainError, badRequest, conflict, unprocessable } from '../../services/errors';
import type { AppState } from './auth';

/**
 * Idempotency-Key for the creating POSTs (`/live-location`, `/api/cases`, `/api/ambulances`,
 * `/api/users`, `/api/tracking/initiate`, which mints links and mails them). A key belongs to the signed-in user; its first request's answer is stored
 * and replayed to every retry with the same body:
 *
 * - the claim is an insert under a unique (user_id, key) constraint: exactly one request runs;
 * - a successful write stores its answer in the write's own transaction (`keyedWrite` hands the
 *   service a `writeHook` whose `alsoWrite` `inTransaction` runs before the commit), so a crash after the
 *   commit can never let a retry write twice; the route declares its answer once (`toAnswer`), and
 *   the same function makes the answer stored and the answer sent;
 * - a 4xx answer is stored after the refusal (nothing was written) and replayed;
 * - a 5xx releases the key, and a claim left running by a crashed process is taken over.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const KEY_TTL_MS = 24 * 3600_000;
/** A running claim older than this is abandoned (its process died); requests end far sooner. */
export const LEASE_MS = 60_000;
const PURGE_EVERY_MS = 10 * 60_000;
const KEY = /^[\x20-\x7e]{1,200}$/;

export const messages = {
  invalid: 'Idempotency-Key: must be 1 to 200 printable characters',
  mismatch: 'Idempotency-Key was used with a different request',
  running: 'A request with this Idempotency-Key is still being processed',
} as const;

export interface Answer { status: number; body: unknown }

interface IdempotencyState {
  id: number;
  toAnswer: (result: never) => Answer;
  /** The answer committed with the write, once its transaction has committed. */
  stored?: Answer;
}

/** JSON with object keys sorted at every level, so `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(v: unknown): string {
  if (v === undefined) return 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

export const requestHash = (method: string, path: string, body: unknown) =>
  createHash('sha256').update(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`).digest('hex');

/** A running claim with another owner (node) on a SQLite file was left by a crash: one process serves a file. */
const abandoned = (svc: ServiceContext, row: IdempotencyRow) =>
  row.owner !== svc.nodeId && (isSqlite(svc.db) || Date.parse(row.updated_at) < Date.now() - LEASE_MS);

let lastPurge = 0;
/** Expired keys are purged lazily, at most every ten minutes, by whichever keyed request comes. */
function purgeExpired(svc: ServiceContext) {
  if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = Date.now();
  idempotencyRepository.deleteExpired(svc.db, new Date(Date.now() - KEY_TTL_MS).toISOString())
    .catch((err) => svc.log.warn({ err }, 'idempotency: purging expired keys failed'));
}

type Claim = { claimed: number } | { replay: Answer };

/** Claims the key, or says what to answer instead (replay, 409, 422). */
async function acquire(svc: ServiceContext, userId: number, key: string, hash: string): Promise<Claim> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const id = await idempotencyRepository.claim(svc.db, { userId, key, requestHash: hash, owner: svc.nodeId });
    if (id !== undefined) return { claimed: id };
    const row = await idempotencyRepository.find(svc.db, userId, key);
    if (!row) continue; // released meanwhile: claim again
    if (Date.parse(row.created_at) < Date.now() - KEY_TTL_MS) {
      await idempotencyRepository.deleteIfExpired(svc.db, row.id, new Date(Date.now() - KEY_TTL_MS).toISOString());
      continue;
    }
    if (row.request_hash !== hash) throw unprocessable(messages.mismatch);
    if (row.status === 'done') return { replay: { status: row.response_status!, body: JSON.parse(row.response_body ?? 'null') } };
    if (abandoned(svc, row) && (await idempotencyRepository.takeOver(svc.db, row, svc.nodeId))) return { claimed: row.id };
    if (!abandoned(svc, row)) throw conflict(messages.running);
  }
  throw conflict(messages.running);
}

/** Marks the middleware, so a test can find every keyed route on the router. */
export const KEYED = Symbol('idempotency-keyed');

/**
 * A keyed creating route's two middlewares, placed after its gate (GatedRouter puts the gate first):
 * the key's claim and replay, then the handler. `write` calls the service with the context it is
 * given (the keyed request's write hook is in it); `toAnswer` turns the service's result into the
 * route's answer (status and body), once: the hook stores it in the write's transaction and the
 * handler sends it.
 */
export function keyedWrite<R>(svc: ServiceContext, toAnswer: (result: R) => Answer, write: (ctx: RouterContext, writeSvc: ServiceContext) => Promise<R>) {
  const handler = async (ctx: RouterContext) => {
    const answer = toAnswer(await write(ctx, writeContext(ctx, svc)));
    ctx.status = answer.status;
    ctx.body = answer.body;
  };
  return [idempotency(svc, toAnswer), handler] as const;
}

/** The key's middleware (keyedWrite places it; exported for the tests that drive it alone). */
export function idempotency<R>(svc: ServiceContext, toAnswer: (result: R) => Answer) {
  const middleware = async (ctx: Context, next: Next) => {
    const raw = ctx.headers[IDEMPOTENCY_HEADER];
    if (raw === undefined) {
      await next();
      return;
    }
    const key = Array.isArray(raw) ? raw.join(', ') : raw;
    if (!KEY.test(key) || !key.trim()) throw badRequest(messages.invalid);
    const userId = (ctx.state as AppState).principal!.user.id;
    purgeExpired(svc);

    const claim = await acquire(svc, userId, key, requestHash(ctx.method, ctx.path, ctx.request.body));
    if ('replay' in claim) {
      ctx.status = claim.replay.status;
      ctx.body = claim.replay.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    const state: IdempotencyState = { id: claim.claimed, toAnswer };
    (ctx.state as { idempotency?: IdempotencyState }).idempotency = state;
    try {
      await next();
    } catch (err) {
      if (state.stored) throw err; // the write committed with its answer: a retry replays that
      if (err instanceof DomainError && err.status < 500) {
        // A refusal writes nothing: its answer is stored and replayed to retries.
        await idempotencyRepository.complete(svc.db, state.id, svc.nodeId, err.status, { error: err.message });
      } else {
        await idempotencyRepository.release(svc.db, state.id, svc.nodeId)
          .catch((e) => svc.log.error({ err: e }, 'idempotency: releasing a failed request\'s key failed'));
      }
      throw err;
    }
    const actual: Answer = { status: ctx.status, body: ctx.body };
    if (!state.stored) {
      if (actual.status < 300) {
        // keyedWrite hands its service the hook; a service that writes outside inTransaction would skip it.
        svc.log.error({ path: ctx.path }, 'idempotency: a keyed write committed without its key (its service wrote outside inTransaction); its answer is stored now');
      }
      await idempotencyRepository.complete(svc.db, state.id, svc.nodeId, actual.status, actual.body);
    } else if (canonicalJson(state.stored) !== canonicalJson(actual)) {
      svc.log.error({ path: ctx.path }, 'idempotency: the answer stored with the write differs from the one sent; storing the one sent');
      await idempotencyRepository.replaceAnswer(svc.db, state.id, actual.status, actual.body);
    }
  };
  return Object.assign(middleware, { [KEYED]: true as const });
}

/**
 * The service context for a keyed request's write: its `alsoWrite` marks the key done with
 * the route's answer inside the service's transaction, so the write and its stored answer
 * commit or roll back together. Without a key it is `svc` itself.
 */
function writeContext(ctx: Context, svc: ServiceContext): ServiceContext {
  const state = (ctx.state as { idempotency?: IdempotencyState }).idempotency;
  if (!state) return svc;
  let answer: Answer | undefined;
  const writeHook: WriteHook = {
    async alsoWrite(trx, result) {
      answer = state.toAnswer(result as never);
      // 0 rows: the claim is no longer ours (it was taken over); nothing may be written twice.
      if (!(await idempotencyRepository.complete(trx, state.id, svc.nodeId, answer.status, answer.body))) throw conflict(messages.running);
    },
    onCommit() { state.stored = answer; },
  };
  return { ...svc, writeHook };
}
