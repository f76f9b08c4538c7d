import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dispatchCase } from '../testing/dispatchHelpers';
import { memoryLog } from '../testing/memoryLog';
import { lastOutboxPass } from '../testing/outboxPass';
import { startTestServer } from '../testing/testServer';
import { waitFor } from '../testing/wait';

const queuedLines = (mem: ReturnType<typeof memoryLog>) =>
  mem.entries().filter((e) => typeof e.outboxId === 'number' && String(e.msg).startsWith('mail queued'));

// A file both runs open, so it stays on SQLite whatever TEST_ENGINE says (the behaviour is the worker's, not the engine's).
describe('without SMTP_URL, a restart does not log the waiting mail again', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-outbox-restart-'));
  const env = { DATABASE_URL: path.join(dir, 'restart.sqlite') };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the first run logs each message; the next says how many wait, in one line, and logs only mail queued after it', async () => {
    const first = memoryLog();
    const a = await startTestServer({ env, log: first.log });
    await dispatchCase(a, await a.signIn('operator'), 1, { to: 'ravi@example.com' });
    await dispatchCase(a, await a.signIn('operator'), 2, { to: 'sita@example.com' });
    // Each dispatch mails the patient and the crew.
    await waitFor(() => queuedLines(first).length >= 4, 'the first run logs its four mails');
    await a.dispose();

    const second = memoryLog();
    const b = await startTestServer({ env, log: second.log });
    try {
      await b.outbox.ready; // the first worker pass is done
      expect(queuedLines(second)).toEqual([]);
      const summary = second.entries().filter((e) => String(e.msg).includes('queued before this start'));
      expect(summary).toHaveLength(1);
      expect(summary[0]).toMatchObject({ queued: 4, level: 30 });

      const caseId = await dispatchCase(b, await b.signIn('operator'), 3, { to: 'arun@example.com' });
      await waitFor(() => queuedLines(second).length >= 2, 'the new mails are logged');
      await lastOutboxPass(b);
      expect(queuedLines(second).map((e) => e.to)).toEqual(['driver3@lifeline.test', 'arun@example.com']);
      expect(caseId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await b.dispose();
    }
  });
});
