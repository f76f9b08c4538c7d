import { describe, expect, it } from 'vitest';
import type { AssignmentDto, CaseDto } from '../../api/contract';
import {
  callClock, casesTableOrder, clockCaption, fromLocalInput, movableAssignment, recordedSteps, stepButtonText, stepTimeName, stepTimeText, toLocalInput, turnoutText, unitLine,
} from './callLifeText';

const T0 = Date.parse('2026-11-24T10:00:00Z');
const iso = (offsetS: number) => new Date(T0 + offsetS * 1000).toISOString();

const assignment = (over: Partial<AssignmentDto> = {}): AssignmentDto => ({
  id: 1, case_id: 'c', ambulance_id: 7, license_plate: 'TS09 EA 1007', capability: 'als', can_transport: true, status: 'dispatched',
  dispatched_at: iso(30), en_route_at: null, on_scene_at: null, transporting_at: null, at_hospital_at: null, handover_at: null, cleared_at: null, cancelled_at: null, destination: null, destination_eta_s: null,
  ...over,
});
const call = (over: Partial<CaseDto> = {}) =>
  ({ status: 'active', call_received_at: iso(0), assignment: null, priority: 1, created_at: iso(0), assignments: over.assignment ? [over.assignment] : [], ...over }) as CaseDto;

describe('the response clock of a call', () => {
  const P1 = { target_s: 900 };
  it('runs from the call and turns amber past 80 % and red past the target, with words for each', () => {
    expect(callClock(call(), P1, T0 + 65_000)).toMatchObject({ seconds: 65, clock: '1:05', target: 'target 15:00', state: 'ok', stateText: 'Within target' });
    expect(callClock(call(), P1, T0 + 721_000)).toMatchObject({ state: 'amber', stateText: 'Near target' });
    expect(callClock(call(), P1, T0 + 901_000)).toMatchObject({ state: 'red', stateText: 'Past target', clock: '15:01' });
  });

  it('stops when the crew reached the scene, and a pending call reads as waiting', () => {
    const onScene = call({ assignment: assignment({ status: 'on_scene', en_route_at: iso(40), on_scene_at: iso(400) }) });
    const k = callClock(onScene, P1, T0 + 5000_000);
    expect(k).toMatchObject({ seconds: 400, stopped: true, state: 'ok' });
    expect(clockCaption(k)).toBe('Response');
    expect(clockCaption(callClock(call({ status: 'pending' }), P1, T0))).toBe('Waiting');
    expect(clockCaption(callClock(call(), P1, T0))).toBe('Since call');
  });
});

describe('the unit line', () => {
  it('names the step and how long the unit has been in it', () => {
    expect(unitLine(assignment({ status: 'en_route', en_route_at: iso(60) }), T0 + 132_000).text).toBe('En route · 1:12');
    expect(unitLine(assignment(), T0 + 30_000)).toMatchObject({ label: 'Dispatched', sinceS: 0 });
  });
  it('shows no running time for an assignment that ended', () => {
    expect(unitLine(assignment({ status: 'cleared', cleared_at: iso(900) }), T0 + 2000_000)).toMatchObject({ text: 'Cleared', sinceS: null });
  });
});

describe('the turnout flag', () => {
  it('flags a crew still dispatched past the turnout target, with how long', () => {
    expect(turnoutText(assignment(), T0 + 30_000 + 60_000, 60)).toBeNull();
    expect(turnoutText(assignment(), T0 + 30_000 + 72_000, 60)).toBe('Turnout 1:12 — not moving');
    expect(turnoutText(assignment({ status: 'en_route', en_route_at: iso(200) }), T0 + 500_000, 60)).toBeNull();
    expect(turnoutText(null, T0, 60)).toBeNull();
  });
});

describe('the step controls', () => {
  it('words the next step, and Clear as the action it is', () => {
    expect(stepButtonText('en_route')).toBe('Next: En route');
    expect(stepButtonText('at_hospital')).toBe('Next: At hospital');
    expect(stepButtonText('cleared')).toBe('Clear');
    expect(stepButtonText('handover')).toBe('Next: Handover complete');
  });
  it('moves only an open assignment with an ambulance', () => {
    expect(movableAssignment(call({ assignment: assignment() }))?.ambulance_id).toBe(7);
    expect(movableAssignment(call({ assignment: assignment({ status: 'cancelled', cancelled_at: iso(50) }) }))).toBeNull();
    expect(movableAssignment(call({ assignment: assignment({ ambulance_id: null }) }))).toBeNull();
    expect(movableAssignment(call())).toBeNull();
  });
  it('names a recorded time with its NEMSIS element', () => {
    expect(stepTimeName('on_scene')).toEqual({ name: 'On scene', nemsis: 'eTimes.06' });
    expect(stepTimeName('call_received')).toEqual({ name: 'Call received', nemsis: 'eTimes.01' });
    expect(stepTimeName('cleared').nemsis).toBe('eTimes.13');
    expect(stepTimeName('cancelled')).toEqual({ name: 'Cancelled', nemsis: 'eTimes.14' });
  });
});

describe('the admin table order', () => {
  it('is the board order: open calls by priority, waiting first, oldest first, then the ended, the latest ended first', () => {
    const rows = [
      call({ id: 'closed-old', status: 'closed', created_at: iso(90), closed_at: iso(95) }),
      call({ id: 'p3', priority: 3, call_received_at: iso(0) }),
      call({ id: 'p1-new', priority: 1, call_received_at: iso(50) }),
      call({ id: 'resolved-new', status: 'resolved', created_at: iso(1), closed_at: iso(99) }),
      call({ id: 'p1-old', priority: 1, call_received_at: iso(10) }),
      call({ id: 'p1-waiting', priority: 1, status: 'pending', call_received_at: iso(80) }),
    ];
    expect(casesTableOrder(rows).map((c) => c.id)).toEqual(['p1-waiting', 'p1-old', 'p1-new', 'p3', 'resolved-new', 'closed-old']);
  });
});

describe('recorded times', () => {
  it('lists the times an assignment reached, in order, for correction', () => {
    const a = assignment({ status: 'on_scene', en_route_at: iso(40), on_scene_at: iso(400) });
    expect(recordedSteps(a)).toEqual([{ step: 'dispatched', at: iso(30) }, { step: 'en_route', at: iso(40) }, { step: 'on_scene', at: iso(400) }]);
  });
  it('round-trips a time through the datetime-local input to the second, and refuses what is no time', () => {
    expect(fromLocalInput(toLocalInput(iso(125)))).toBe(iso(125));
    expect(toLocalInput(iso(125))).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(fromLocalInput('2026-11-24T10:05')).toBe(new Date(2026, 10, 24, 10, 5, 0).toISOString());
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('yesterday')).toBeNull();
  });
  it('shows a time of today without its date, and an earlier day with it', () => {
    expect(stepTimeText(iso(0), T0 + 60_000, 'en-GB')).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(stepTimeText(iso(0), T0 + 3 * 86_400_000, 'en-GB')).toMatch(/^\d{1,2} Nov \d{2}:\d{2}:\d{2}$/);
    expect(stepTimeText('nope', T0)).toBe('—');
  });
});
