import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { casePayload, dispatchCase } from '../../testing/dispatchHelpers';
import { memoryLog } from '../../testing/memoryLog';
import { useTestServer } from '../../testing/testServer';
import { KEYED } from './idempotency';

/**
 * Every keyed route's write must run through `inTransaction` with the hook `keyedWrite` hands its
 * service: only then does its idempotency record commit with the write. The keyed routes are read
 * off the router, so a new one without a case below fails here, and each is sent once with a key.
 */

const mem = memoryLog();
const s = useTestServer({ log: mem.log });
let token: { operator: string; admin: string };
beforeAll(async () => {
  token = { operator: await s.signIn('operator'), admin: await s.signIn('admin') };
});

/** `url`, when the path has an id, is read after `body` (which makes the row it names). */
type Case = { as: 'operator' | 'admin'; body: () => Promise<unknown>; url?: () => string };
let runningCall = '';
let waitingCall = '';
const keyedRoutes: Record<string, Case> = {
  'POST /live-location': { as: 'operator', body: async () => casePayload(2, { patientName: 'Keyed Live' }) },
  'POST /api/cases': { as: 'operator', body: async () => casePayload(undefined, { patientName: 'Keyed Form' }) },
  'POST /api/ambulances': { as: 'admin', body: async () => ({ license_plate: 'KEYED 1', status: 'available' }) },
  'POST /api/hospitals': { as: 'admin', body: async () => ({ name: 'Keyed General', latitude: 17.4, longitude: 78.5, capabilities: ['stroke'] }) },
  'POST /api/users': { as: 'admin', body: async () => ({ name: 'Keyed Operator', email: 'keyed.operator@lifeline.test', phone: '5550177', shift: 1, gender: 2 }) },
  'POST /api/tracking/initiate': {
    as: 'operator',
    body: async () => ({ caseId: await dispatchCase(s, token.operator, 3, { to: 'keyed@example.com' }), ambulanceId: 3 }),
  },
  'POST /api/cases/:id/dispatch': {
    as: 'operator',
    body: async () => {
      waitingCall = (await s.api('POST', '/api/cases', { token: token.operator, body: casePayload(undefined, { status: 'pending', patientName: 'Keyed Queue' }) })).body.case.id;
      return { ambulance_id: 4 };
    },
    url: () => `/api/cases/${waitingCall}/dispatch`,
  },
  'POST /api/cases/:id/assignments': {
    as: 'operator',
    body: async () => {
      runningCall = await dispatchCase(s, token.operator, 5, { to: 'keyed.units@example.com' });
      return { ambulance_id: 6 };
    },
    url: () => `/api/cases/${runningCall}/assignments`,
  },
};

describe('keyed routes store their answer in the write\'s transaction', () => {
  it('the router\'s keyed routes are the ones listed here', () => {
    const { router } = createApp(s.ctx);
    const keyed = new Set<string>();
    for (const layer of router.stack) {
      if (!layer.stack.some((fn) => KEYED in fn)) continue;
      for (const method of layer.methods) if (method !== 'HEAD') keyed.add(`${method} ${layer.path}`);
    }
    expect([...keyed].sort()).toEqual(Object.keys(keyedRoutes).sort());
  });

  it.each(Object.entries(keyedRoutes))('%s completes its key with the write', async (route, c) => {
    const [method, path] = route.split(' ');
    const key = `keyed-${path}`;
    const logged = mem.lines.length;
    const body = await c.body();
    const res = await s.api(method, c.url?.() ?? path, { token: token[c.as], body, headers: { 'Idempotency-Key': key } });
    expect(res.status).toBeLessThan(300);
    expect(mem.entries().slice(logged).filter((e) => /without its key/.test(e.msg ?? ''))).toEqual([]);
    expect(await s.ctx.db('idempotency_keys').where({ key }).first()).toMatchObject({ status: 'done', response_status: res.status });
  });
});
