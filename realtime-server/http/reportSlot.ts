import type { Context } from 'koa';
import { finished } from 'node:stream';
import type { Readable } from 'node:stream';
import type { ServiceContext } from '../services/context';
import type { ReleaseSlot } from '../services/reportGate';
import { clientGoneSignal } from './clientAbort';
import type { AppState } from './middleware/auth';

/**
 * One of the node's report slots (services/reportGate.ts) for this request's staff member, and
 * the signal that stops the report once its client leaves (also while it waits for the slot).
 * A refusal answers 503 or 429 with Retry-After.
 */
async function takeSlot(ctx: Context, svc: ServiceContext): Promise<{ release: ReleaseSlot; signal: AbortSignal }> {
  const signal = clientGoneSignal(ctx);
  const { user } = (ctx.state as AppState).principal!;
  // A refusal (ReportsBusy) carries its Retry-After to the error handler.
  return { release: await svc.reports.acquire(String(user.id), signal), signal };
}

/** Makes a JSON report in a slot, given back when it is made, failed or abandoned. */
export async function inReportSlot<T>(ctx: Context, svc: ServiceContext, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { release, signal } = await takeSlot(ctx, svc);
  try {
    return await work(signal);
  } finally {
    release();
  }
}

/**
 * Streams a report in a slot, held until the stream has ended, failed or been destroyed (Koa
 * destroys a body stream whose client left); given back at once if the stream is never made.
 */
export async function streamInReportSlot(ctx: Context, svc: ServiceContext, make: (signal: AbortSignal) => Promise<Readable>): Promise<Readable> {
  const { release, signal } = await takeSlot(ctx, svc);
  try {
    const stream = await make(signal);
    finished(stream, () => release());
    return stream;
  } catch (err) {
    release();
    throw err;
  }
}
