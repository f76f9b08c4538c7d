import { describe, expect, it } from 'vitest';
import { expectError } from '../../testing/assertions';
import { dispatchCase, trackingTokens } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';
import { waitFor } from '../../testing/wait';

/** GET /api/metrics: Prometheus text an operations engineer can scrape (docs/operations.md, "What to watch"). */
const METRICS_TOKEN = 'scrape-me-0123456789abcdef';
const s = useTestServer({ env: { METRICS_TOKEN } });

/** The value of one sample line, e.g. `lifeline_sockets{room="staff"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /api/metrics', () => {
  it('shows sockets by room type, events sent, fan-out latency, the outbox queue and the database pool', async () => {
    const operator = await s.signIn('operator');
    const admin = await s.signIn('admin');
    await s.socket({ token: operator });
    await s.socket({ token: admin });
    const caseId = await dispatchCase(s, operator, 1);
    const { viewer, driver } = await trackingTokens(s, operator, caseId, 1);
    await s.socket({ trackToken: viewer });
    const sender = await s.socket({ driverToken: driver });
    expect(await sender.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.4, longitude: 78.5 })).toMatchObject({ ok: true });
    const scrape = () => fetch(`${s.url}/api/metrics`, { headers: { authorization: `Bearer ${admin}` } });
    // The staff batch leaves on the next tick (at most a second); its delivery is counted once every shard has it.
    await waitFor(async () => sample(await (await scrape()).text(), 'lifeline_fanout_seconds_count{room="staff"}'), 'the staff tick', 5000, 50);

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(sample(text, 'lifeline_sockets{room="staff"}')).toBe(2);
    expect(sample(text, 'lifeline_sockets{room="admins"}')).toBe(1);
    expect(sample(text, 'lifeline_sockets{room="ambulance"}')).toBe(2);
    expect(sample(text, 'lifeline_sockets{room="all"}')).toBe(4);
    expect(sample(text, 'lifeline_events_total{event="case.created"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'lifeline_events_total{event="ambulance.position"}')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'lifeline_fanout_seconds_count{room="ambulance"}')).toBe(1);
    expect(sample(text, 'lifeline_fanout_seconds_count{room="staff"}')).toBe(1);
    // Dispatch and the tracking links queued mail; no SMTP here, so it waits.
    expect(sample(text, 'lifeline_outbox_queued')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'lifeline_db_pool{state="used"}')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('lifeline_process_resident_memory_bytes');
    // Never an id in a label: rooms are counted by type.
    expect(text).not.toMatch(/room="(case|ambulance):/);
  });

  it('answers the METRICS_TOKEN bearer (a scraper), and nobody else but admins', async () => {
    const scraped = await fetch(`${s.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('lifeline_sockets');
    expectError(await s.api('GET', '/api/metrics'), 401, 'Authentication required');
    expectError(await s.api('GET', '/api/metrics', { token: `${METRICS_TOKEN}x` }), 401, 'Your session has expired or was revoked; please sign in again');
    expectError(await s.api('GET', '/api/metrics', { token: await s.signIn('operator') }), 403, 'Only admins (or the METRICS_TOKEN scraper) can read metrics');
  });

  it('the METRICS_TOKEN opens nothing else', async () => {
    expectError(await s.api('GET', '/api/cases', { token: METRICS_TOKEN }), 401, 'Your session has expired or was revoked; please sign in again');
    expectError(await s.api('GET', '/api/outbox', { token: METRICS_TOKEN }), 401, 'Your session has expired or was revoked; please sign in again');
  });
});
