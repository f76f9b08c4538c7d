import type { TestServer } from './testServer';

/**
 * Runs one more whole pass of the server's outbox worker and then stops it (stop() waits for
 * the pass under way): what any later poll would have done is done, with no time to wait out.
 * The worker is off for the rest of the server's life.
 */
export async function lastOutboxPass(s: Pick<TestServer, 'ctx' | 'outbox'>): Promise<void> {
  s.ctx.bus.publish([{ type: 'mail.queued' }]);
  await s.outbox.stop();
}
