import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError } from '../../testing/assertions';
import { type TestServer, startTestServer } from '../../testing/testServer';

/** What a load balancer's health check sees: 200 while the node takes work, 503 once it drains. */
let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => { await s?.dispose(); });

it('answers 200 while serving and 503 once the node begins to shut down', async () => {
  expect(await s.api('GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
  const closing = s.close({ drainMs: 500 });
  expectError(await s.api('GET', '/api/health'), 503, 'This node is shutting down');
  // Still serving while it drains: a request in flight or a late one is answered.
  expect((await s.api('GET', '/api/config')).status).toBe(200);
  await closing;
});
