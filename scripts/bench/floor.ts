/**
 * The transport floor: the fleet's fan-out with nothing else. Drivers send positions, each is
 * serialised once and sent to its ambulance's viewers; staff get one batch a second with the
 * latest position of every ambulance. No database, no auth, no validation.
 *   --mode ws   a plain `ws` server (bufferutil/utf-8-validate when installed)
 *   --mode sio  a minimal Socket.IO server doing the same with rooms
 * Prints `{"port":N}` on stdout once listening.
 */
import http from 'node:http';
import { Server } from 'socket.io';
import WebSocket, { WebSocketServer } from 'ws';

const mode = process.argv[process.argv.indexOf('--mode') + 1] === 'sio' ? 'sio' : 'ws';
const server = http.createServer();
type Pos = { ambulanceId: number; latitude: number; longitude: number; accuracy: number | null; heading: null; speed: null; recorded_at: string };
/** A driver's position as load.ts sends it. */
type Fix = { latitude: number; longitude: number; accuracy?: number; timestamp: number };
type Ack = (r: { ok: boolean; latest: boolean }) => void;
const dto = (amb: number, p: Fix): Pos => ({
  ambulanceId: amb, latitude: p.latitude, longitude: p.longitude, accuracy: p.accuracy ?? null, heading: null, speed: null, recorded_at: new Date(p.timestamp).toISOString(),
});
const pending = new Map<number, Pos>();

if (mode === 'ws') {
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  const rooms = new Map<number, Set<WebSocket>>();
  const staff = new Set<WebSocket>();
  wss.on('connection', (ws, req) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const role = q.get('role');
    const amb = Number(q.get('amb'));
    if (role === 'viewer') {
      const set = rooms.get(amb) ?? new Set();
      rooms.set(amb, set);
      set.add(ws);
      ws.on('close', () => set.delete(ws));
    } else if (role === 'staff') {
      staff.add(ws);
      ws.on('close', () => staff.delete(ws));
    } else {
      ws.on('message', (data) => {
        // load.ts sends text frames, which `ws` hands over as a Buffer (its default binaryType).
        const m = JSON.parse((data as Buffer).toString('utf8')) as { id: number; d: Fix };
        const p = dto(amb, m.d);
        ws.send(JSON.stringify({ a: m.id, d: { ok: true, latest: true } }));
        pending.set(amb, p);
        const frame = JSON.stringify({ e: 'track.position', d: { positions: [p] } });
        for (const v of rooms.get(amb) ?? []) v.send(frame);
      });
    }
  });
  setInterval(() => {
    if (!pending.size) return;
    const frame = JSON.stringify({ e: 'ambulance.position', d: { positions: [...pending.values()] } });
    pending.clear();
    for (const s of staff) s.send(frame);
  }, 1000);
} else {
  const io = new Server(server, { serveClient: false });
  io.on('connection', (socket) => {
    const { role, amb } = socket.handshake.auth as { role: string; amb: string };
    const id = Number(amb);
    // The in-memory adapter joins at once: nothing to wait for.
    if (role === 'viewer') void socket.join(`ambulance:${id}`);
    else if (role === 'staff') void socket.join('staff');
    else socket.on('ambulance.position', (raw: Fix, ack: Ack) => {
      const p = dto(id, raw);
      ack({ ok: true, latest: true });
      pending.set(id, p);
      io.to(`ambulance:${id}`).emit('track.position', { positions: [p] });
    });
  });
  setInterval(() => {
    if (!pending.size) return;
    const positions = [...pending.values()];
    pending.clear();
    io.to('staff').volatile.emit('ambulance.position', { positions });
  }, 1000);
}

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
