/**
 * A listening-only Socket.IO client for the bench's viewers and staff boards: one `ws` socket
 * speaking the wire protocol directly (Engine.IO 4 over WebSocket, Socket.IO 5 on the main
 * namespace, JSON packets). socket.io-client's per-socket machinery (manager, reconnection,
 * timers, event emitters, packet decoder objects) cost the generator most of its core at 10,000
 * viewers, so the generator, not the server, set the figures. This client does what a viewer
 * does on the wire and nothing else: connect with its auth, answer pings, hand each listened-to
 * event's payload to its listener. It trusts the server's frames to be UTF-8 (the server under test
 * is ours; checking is the server's job for what it receives, not the generator's).
 *
 * Packets (https://socket.io/docs/v4/socket-io-protocol/): the server opens with `0{…}`
 * (Engine.IO open), the client connects with `40{auth}`, the server answers `40{"sid":…}` or
 * `44{"message":…}` (refused); `2` is a ping answered by `3`; `42[event, payload]` an event.
 */
import WebSocket from 'ws';

export interface LiteSocket {
  on(ev: string, fn: (payload: never) => void): LiteSocket;
  /** The event's packet as text, unparsed (`42["event",payload]`): for a listener that only counts or scans. */
  onText(ev: string, fn: (packet: string) => void): LiteSocket;
  readonly connected: boolean;
  close(): void;
}

export function connectLite(url: string, auth: Record<string, string>, opts: { onDisconnect?: () => void; timeoutMs?: number } = {}): Promise<LiteSocket | undefined> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, { perMessageDeflate: false, skipUTF8Validation: true });
    const handlers = new Map<string, { fn: (d: unknown) => void; text?: true }>();
    let connected = false;
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!ok) ws.terminate();
      resolve(ok ? socket : undefined);
    };
    const timer = setTimeout(() => settle(false), opts.timeoutMs ?? 60_000);
    const socket: LiteSocket = {
      on: (ev, fn) => { handlers.set(ev, { fn: fn as (d: unknown) => void }); return socket; },
      onText: (ev, fn) => { handlers.set(ev, { fn: fn as (d: unknown) => void, text: true }); return socket; },
      get connected() { return connected; },
      close: () => { connected = false; ws.close(); },
    };
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      switch (text.charCodeAt(0)) {
        case 0x30: // 0: Engine.IO open
          ws.send(`40${JSON.stringify(auth)}`);
          return;
        case 0x32: // 2: ping
          ws.send('3');
          return;
        case 0x34: // 4: a Socket.IO packet
          if (text.startsWith('42["')) {
            // The event's name first, from the text: an event nobody listens to (a staff board's
            // case.updated, ambulance.updated, alerts…) is never parsed, so the generator's cost
            // follows what the bench measures, not everything the server sends.
            const handler = handlers.get(text.slice(4, text.indexOf('"', 4)));
            if (handler) handler.fn(handler.text ? text : (JSON.parse(text.slice(2)) as [string, unknown])[1]);
          } else if (text.startsWith('40')) {
            connected = true;
            settle(true);
          } else if (text.startsWith('44') || text.startsWith('41')) {
            connected = false;
            settle(false);
          }
          return;
        default:
      }
    });
    ws.on('error', () => settle(false));
    ws.on('close', () => {
      const was = connected;
      connected = false;
      settle(false);
      if (was) opts.onDisconnect?.();
    });
  });
}
