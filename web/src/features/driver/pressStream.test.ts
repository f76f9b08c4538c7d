import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import type { AssignmentDto, UnitStatusAck, UnitStep } from '../../api/contract';
import { type PressSocket, createPressStream, pressQueue, readPress } from './pressStream';
import type { UnitPress } from './unitSteps';
import { memoryStorage } from '../../testing/memoryStorage';


const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const assignment = (status: AssignmentDto['status']): AssignmentDto => ({
  id: 7, case_id: 'c', ambulance_id: 1, license_plate: 'TS09', capability: 'als', can_transport: true, status, dispatched_at: '2026-11-24T09:59:00.000Z',
  en_route_at: null, on_scene_at: null, transporting_at: null, at_hospital_at: null, handover_at: null, cleared_at: null, cancelled_at: null, destination: null, destination_eta_s: null,
});

type Answer = 'ok' | 'offline' | 409 | 404 | 403 | 500;

/** A server behind REST that answers from a script (default: ok) and records what it took, with the press times. */
function server(script: Answer[] = [], opts: { linkClosed?: boolean } = {}) {
  const taken: UnitPress[] = [];
  const tried: UnitStep[] = [];
  let clock = T0;
  const viaRest = async (p: UnitPress): Promise<UnitStatusAck> => {
    tried.push(p.status);
    const answer = script.shift() ?? 'ok';
    if (answer === 'offline') throw new TypeError('Failed to fetch');
    if (answer !== 'ok') throw new ApiError(answer, answer === 409 ? 'Ambulance TS09 is already on scene' : 'This link is not valid for sending positions');
    taken.push(p);
    return { ok: true, assignment: assignment(p.status) };
  };
  const stream = createPressStream({
    queue: pressQueue('presses', storage),
    socket: () => null,
    viaRest,
    linkClosed: async () => opts.linkClosed ?? false,
    now: () => (clock += 1000),
    retryMs: 60_000,
  });
  return { stream, taken, tried };
}
let storage = memoryStorage();

describe('the crew\'s step presses', () => {
  it('sends each press with the time it was pressed and shows the answer', async () => {
    storage = memoryStorage();
    const { stream, taken } = server();
    await stream.press('en_route');
    expect(taken).toEqual([{ status: 'en_route', at: '2026-11-24T10:00:01.000Z' }]);
    expect(stream.getState()).toMatchObject({ waiting: [], notice: null, acked: { status: 'en_route' } });
  });

  it('keeps presses while offline, in order with their press times, and replays them when back', async () => {
    storage = memoryStorage();
    const { stream, taken, tried } = server(['offline', 'offline']);
    await stream.press('on_scene');
    await stream.press('transporting');
    expect(stream.getState().waiting.map((p) => p.status)).toEqual(['on_scene', 'transporting']);
    expect(tried).toEqual(['on_scene', 'on_scene']); // the first failed send holds the later one back
    expect(taken).toEqual([]);

    await stream.flush();
    expect(taken).toEqual([
      { status: 'on_scene', at: '2026-11-24T10:00:01.000Z' },
      { status: 'transporting', at: '2026-11-24T10:00:02.000Z' },
    ]);
    expect(stream.getState().waiting).toEqual([]);
    expect(stream.getState().acked?.status).toBe('transporting');
    stream.pause();
  });

  it('keeps the queue across a reload (storage) and replays it from there', async () => {
    storage = memoryStorage();
    const first = server(['offline']);
    await first.stream.press('en_route');
    first.stream.pause();
    const second = server();
    expect(second.stream.getState().waiting.map((p) => p.status)).toEqual(['en_route']);
    await second.stream.flush();
    expect(second.taken).toEqual([{ status: 'en_route', at: '2026-11-24T10:00:01.000Z' }]);
  });

  it('drops a press the server refuses (409) and says why, then sends the next', async () => {
    storage = memoryStorage();
    const { stream, taken } = server(['offline', 409]);
    await stream.press('on_scene');
    await stream.press('cleared');
    await stream.flush();
    expect(taken.map((p) => p.status)).toEqual(['cleared']);
    expect(stream.getState().waiting).toEqual([]);
    expect(stream.getState().notice).toMatch(/^On scene \(pressed .+\) was not recorded: Ambulance TS09 is already on scene$/);
    // The next press taken clears the words.
  });

  it('keeps a press on a server error, and retries it', async () => {
    storage = memoryStorage();
    const { stream, taken } = server([500]);
    await stream.press('en_route');
    expect(stream.getState().waiting).toHaveLength(1);
    await stream.flush();
    expect(taken.map((p) => p.status)).toEqual(['en_route']);
    stream.pause();
  });

  it('stops and forgets the queue when the link says the case is over', async () => {
    storage = memoryStorage();
    const { stream, taken } = server(['offline', 404], { linkClosed: true });
    await stream.press('cleared');
    expect(stream.getState().clearPressed).toBe(true);
    await stream.flush();
    expect(taken).toEqual([]);
    expect(stream.getState()).toMatchObject({ closed: true, waiting: [], clearPressed: true });
    expect(storage.length).toBe(0);
    await stream.press('en_route');
    expect(stream.getState().waiting).toEqual([]);
  });

  it('drops a press a live link may no longer make (reassigned), without closing', async () => {
    storage = memoryStorage();
    const { stream } = server([403], { linkClosed: false });
    await stream.press('on_scene');
    expect(stream.getState()).toMatchObject({ closed: false, waiting: [] });
    expect(stream.getState().notice).toMatch(/not recorded: This link is not valid/);
  });

  it('uses the socket when it is connected, and REST when its ack refuses or never comes', async () => {
    storage = memoryStorage();
    const emitted: UnitPress[] = [];
    let answer: 'ok' | 'refuse' | 'hang' = 'ok';
    const socket: PressSocket = {
      connected: true,
      timeout: () => ({
        emitWithAck: async (_e, p) => {
          emitted.push(p);
          if (answer === 'hang') throw new Error('operation has timed out');
          return answer === 'ok' ? { ok: true, assignment: assignment(p.status) } : { ok: false, error: 'Ambulance TS09 is already en route' };
        },
      }),
    };
    const rest: UnitStep[] = [];
    const stream = createPressStream({
      queue: pressQueue('s', storage),
      socket: () => socket,
      viaRest: async (p) => {
        rest.push(p.status);
        throw new ApiError(409, 'Ambulance TS09 is already en route');
      },
      linkClosed: async () => false,
    });
    await stream.press('en_route');
    expect(rest).toEqual([]);
    expect(stream.getState().acked?.status).toBe('en_route');
    answer = 'refuse';
    await stream.press('en_route');
    answer = 'hang';
    await stream.press('en_route');
    expect(emitted.map((p) => p.status)).toEqual(['en_route', 'en_route', 'en_route']);
    expect(rest).toEqual(['en_route', 'en_route']);
    expect(stream.getState().waiting).toEqual([]);
  });

  it('reads back only well-formed presses', () => {
    expect(readPress({ status: 'on_scene', at: '2026-11-24T10:00:00.000Z' })).toEqual({ status: 'on_scene', at: '2026-11-24T10:00:00.000Z' });
    expect(readPress({ status: 'dispatched', at: '2026-11-24T10:00:00.000Z' })).toBeNull();
    expect(readPress({ status: 'on_scene', at: 'yesterday' })).toBeNull();
    expect(readPress(null)).toBeNull();
  });
});
