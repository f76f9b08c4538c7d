import { io as connect, type Socket } from 'socket.io-client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dispatchCase, trackingTokens } from '../testing/dispatchHelpers';
import { nextEvent, useTestServer } from '../testing/testServer';

/** The Socket.IO handshake's Origin check and the per-message size limit. */

const ALLOWED = 'https://dispatch.example.org';
const s = useTestServer({ env: { ALLOWED_ORIGINS: `${ALLOWED}, https://other.example.org` } });
let operator: string;
let open: Socket[] = [];

beforeAll(async () => {
  operator = await s.signIn('operator');
});
afterEach(() => {
  for (const sock of open) sock.disconnect();
  open = [];
});

/** Connects as a browser would (with `Origin`) or as a Node client (without); resolves 'connected' or the handshake error. */
function handshake(transport: 'websocket' | 'polling', origin?: string): Promise<{ sock: Socket; outcome: string }> {
  const sock = connect(s.url, {
    auth: { token: operator },
    transports: [transport],
    reconnection: false,
    forceNew: true,
    extraHeaders: origin ? { origin } : {},
  });
  open.push(sock);
  return new Promise((resolve) => {
    sock.once('connect', () => resolve({ sock, outcome: 'connected' }));
    sock.once('connect_error', (err) => resolve({ sock, outcome: `refused: ${err.message}` }));
  });
}

describe('handshake Origin', () => {
  it.each(['websocket', 'polling'] as const)('refuses a browser handshake from another origin (%s)', async (transport) => {
    const { outcome } = await handshake(transport, 'https://evil.example');
    expect(outcome).toMatch(/^refused/);
  });

  it.each(['websocket', 'polling'] as const)('accepts an origin listed in ALLOWED_ORIGINS (%s)', async (transport) => {
    expect((await handshake(transport, ALLOWED)).outcome).toBe('connected');
    expect((await handshake(transport, 'https://other.example.org')).outcome).toBe('connected');
  });

  it("accepts the server's own origin (the page it served)", async () => {
    expect((await handshake('websocket', s.url)).outcome).toBe('connected');
  });

  it('accepts a handshake without Origin (Node clients, the simulator, tests)', async () => {
    expect((await handshake('websocket')).outcome).toBe('connected');
    expect((await handshake('polling')).outcome).toBe('connected');
  });

  it.each(['null', 'http://dispatch.example.org', 'https://dispatch.example.org.evil.example'])('refuses the look-alike origin %s', async (origin) => {
    expect((await handshake('websocket', origin)).outcome).toMatch(/^refused/);
  });

  it('an allowed origin still needs a valid token', async () => {
    const sock = connect(s.url, { auth: { token: 'nope' }, transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { origin: ALLOWED } });
    open.push(sock);
    const err = await new Promise<Error>((resolve) => sock.once('connect_error', resolve));
    expect(err.message).toBe('unauthorized');
  });
});

describe('message size', () => {
  it('a message over 64 KB closes that socket; the server and other sockets carry on', async () => {
    const caseId = await dispatchCase(s, operator, 3);
    const { driver } = await trackingTokens(s, operator, caseId, 3);
    const bystander = (await handshake('websocket')).sock;
    const sender = await s.socket({ driverToken: driver });
    open.push(sender);

    // Under the limit: answered (the unknown field is dropped), the socket stays.
    const small = await sender.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.4, longitude: 78.5, pad: 'x'.repeat(32 * 1024) } as any);
    expect(small).toMatchObject({ ok: true });
    expect(sender.connected).toBe(true);

    const closed = nextEvent<string>(sender, 'disconnect', 3000);
    sender.emit('ambulance.position', { latitude: 17.4, longitude: 78.5, pad: 'x'.repeat(100 * 1024) } as any);
    expect(await closed).toMatch(/transport (close|error)/);

    expect(bystander.connected).toBe(true);
    expect((await s.api('GET', '/api/health')).status).toBe(200);
    const again = await s.socket({ driverToken: driver });
    open.push(again);
    expect(await again.timeout(2000).emitWithAck('ambulance.position', { latitude: 17.41, longitude: 78.5 })).toMatchObject({ ok: true });
  });

  it('the same over HTTP long-polling', async () => {
    const { sock } = await handshake('polling');
    const closed = nextEvent<string>(sock, 'disconnect', 5000);
    sock.emit('ambulance.position' as any, { pad: 'x'.repeat(100 * 1024) });
    expect(await closed).toMatch(/transport (close|error)/);
    expect((await s.api('GET', '/api/health')).status).toBe(200);
  });
});
