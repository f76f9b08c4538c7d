import { describe, expect, it } from 'vitest';
import type { AmbulanceDto, CaseDto, UnitStatus } from '../../api/contract';
import {
  freeUnitRankText,
  type CallAlert, type HeldAlert, type WatchInput, type WatchState, NEWS_MS, alertResolved, ambulanceFreedBy, arrangeNotices, assignLabel, callToAssign,
  freeUnitSummary, initialWatch, moreText, pruneAlerts, queueSummary, waitWords, watchStep,
} from './alertRules';

const T0 = Date.parse('2026-11-24T10:00:00Z');
const ago = (s: number) => new Date(T0 - s * 1000).toISOString();
const ME = 7;
const OTHER = 1;

const kase = (id: string, over: Partial<CaseDto> = {}): CaseDto => ({
  id, description: 'Heart Attack', status: 'active', caseType: null, patientName: `Patient ${id}`, patient_name: `Patient ${id}`, email: 'p@x.test',
  priority: 1, call_received_at: ago(10), assignment: null, assignments: [], backup_request: null, patient_email: 'p@x.test', operator_id: OTHER, ambulance_id: null,
  license_plate: null, latitude: null, longitude: null, location_accuracy: null, location_updated_at: null, wkb: null, location_source: null, intake_location: null, patient_location: null, location_mismatch_m: null, demo: false,
  created_at: ago(10), updated_at: ago(10), closed_at: null, version: 1, ...over,
});
const amb = (id: number, unit_status: UnitStatus, version = 1): AmbulanceDto => ({
  id, license_plate: `TS09 EA 100${id}`, status: unit_status === 'available' || unit_status === 'maintenance' ? unit_status : 'busy',
  unit_status, unit_status_since: null, email: null, capability: 'als', can_transport: true, location: null, created_at: '', updated_at: '', version,
});

/** Runs the watch over a series of snapshots; answers each step's alerts. */
function run(steps: Partial<WatchInput>[]): { alerts: ReturnType<typeof watchStep>['alerts'][]; state: WatchState } {
  let state = initialWatch();
  const alerts = [];
  for (const s of steps) {
    const r = watchStep(state, { cases: [], ambulances: [], meId: ME, nowMs: T0, ...s });
    state = r.state;
    alerts.push(r.alerts);
  }
  return { alerts, state };
}

describe('new calls', () => {
  it('alerts a call created by someone else, once, and never for the calls there at load', () => {
    const old = kase('old');
    const fresh = kase('new', { description: 'Stroke', priority: 2, status: 'active' });
    const { alerts } = run([{ cases: [old] }, { cases: [fresh, old] }, { cases: [fresh, old] }]);
    expect(alerts[0]).toEqual([]);
    expect(alerts[1]).toHaveLength(1);
    expect(alerts[1][0]).toMatchObject({ key: 'new:new', reason: 'new-call', priority: 2, caseId: 'new', title: 'New P2 call' });
    expect(alerts[1][0].text).toBe('New P2 call (Emergency): Stroke — Patient new');
    expect(alerts[2]).toEqual([]);
  });

  it('does not alert the user\'s own call', () => {
    const { alerts } = run([{ cases: [] }, { cases: [kase('mine', { operator_id: ME })] }]);
    expect(alerts[1]).toEqual([]);
  });

  it('waits for both lists before taking the baseline', () => {
    const c = kase('a');
    const { alerts } = run([{ cases: undefined }, { cases: [c], ambulances: undefined }, { cases: [c] }, { cases: [c] }]);
    expect(alerts.flat()).toEqual([]);
  });

  it('says when a new call waits for an ambulance, and does not add a second notice for its wait', () => {
    const c = kase('q', { status: 'pending', call_received_at: ago(400) });
    const { alerts } = run([{ cases: [] }, { cases: [c] }, { cases: [c], nowMs: T0 + 5000 }]);
    expect(alerts[1].map((a) => a.key)).toEqual(['new:q']);
    expect(alerts[1][0].text).toBe('New P1 call (Life-threatening), waiting for an ambulance 6 min: Heart Attack — Patient q');
    expect(alerts[2]).toEqual([]);
  });

  it('ignores a call that arrives already closed', () => {
    const { alerts } = run([{ cases: [] }, { cases: [kase('x', { status: 'closed' })] }]);
    expect(alerts[1]).toEqual([]);
  });

  it('cuts a long description to one line', () => {
    const c = kase('long', { description: `${'word '.repeat(40)}\n\nmore` });
    const [, [a]] = run([{ cases: [] }, { cases: [c] }]).alerts;
    expect(a.text.length).toBeLessThan(140);
    expect(a.text).toContain('… — Patient long');
  });
});

describe('calls waiting past their threshold', () => {
  const config = { priorities: [
    { priority: 1 as const, label: 'Life-threatening', target_s: 900, mean_target_s: 420, queue_alert_s: 60 },
    { priority: 3 as const, label: 'Urgent', target_s: 7200, mean_target_s: null, queue_alert_s: 300 },
  ] };

  it('alerts once when a pending call crosses its priority\'s threshold (from call_received_at)', () => {
    const mine = kase('p', { status: 'pending', operator_id: ME, call_received_at: ago(30) });
    const { alerts } = run([
      { cases: [], config },
      { cases: [mine], config, nowMs: T0 },
      { cases: [mine], config, nowMs: T0 + 29_000 },
      { cases: [mine], config, nowMs: T0 + 30_000 },
      { cases: [mine], config, nowMs: T0 + 31_000 },
    ]);
    expect(alerts[1]).toEqual([]); // my own new call: no new-call alert
    expect(alerts[2]).toEqual([]);
    expect(alerts[3]).toHaveLength(1);
    expect(alerts[3][0]).toMatchObject({ key: 'wait:p', reason: 'queue-wait', priority: 1, title: 'P1 call waiting' });
    expect(alerts[3][0].text).toBe('P1 call waiting 1 min with no ambulance: Heart Attack — Patient p');
    expect(alerts[4]).toEqual([]);
  });

  it('uses the configured threshold of the call\'s priority', () => {
    const p3 = kase('p3', { status: 'pending', priority: 3, call_received_at: ago(0) });
    const { alerts } = run([
      { cases: [p3], config },
      { cases: [p3], config, nowMs: T0 + 299_000 },
      { cases: [p3], config, nowMs: T0 + 300_000 },
    ]);
    expect(alerts[1]).toEqual([]);
    expect(alerts[2].map((a) => a.key)).toEqual(['wait:p3']);
  });

  it('does not alert on load for a call already past its threshold, nor for a running call', () => {
    const late = kase('late', { status: 'pending', call_received_at: ago(3600) });
    const running = kase('run', { status: 'active', call_received_at: ago(3600) });
    const { alerts } = run([{ cases: [late, running] }, { cases: [late, running], nowMs: T0 + 1000 }]);
    expect(alerts.flat()).toEqual([]);
  });
});

describe('a call back in the queue', () => {
  it('alerts every dispatcher when a running call waits again (its unit taken for a more urgent call), once each time', () => {
    const running = kase('p4', { status: 'active', priority: 4, ambulance_id: 3, operator_id: ME });
    const requeued = { ...running, status: 'pending' as const, ambulance_id: null, version: 2 };
    const again = { ...running, version: 3 };
    const { alerts } = run([
      { cases: [running] },
      { cases: [requeued] },
      { cases: [requeued], nowMs: T0 + 5000 },
      { cases: [again] },
      { cases: [{ ...requeued, version: 4 }] },
    ]);
    expect(alerts[1]).toHaveLength(1);
    expect(alerts[1][0]).toMatchObject({ key: 'requeue:p4', reason: 'queue-wait', priority: 4, caseId: 'p4', waiting: true, title: 'P4 call back in the queue' });
    expect(alerts[1][0].text).toBe('P4 call back in the queue, waiting for an ambulance under 1 min: Heart Attack — Patient p4');
    expect(alerts[2]).toEqual([]);
    expect(alerts[3]).toEqual([]);
    expect(alerts[4].map((a) => a.key)).toEqual(['requeue:p4']);
  });

  it('does not call a new waiting call, or one waiting since the load, "back in the queue"', () => {
    const waiting = kase('w', { status: 'pending' });
    const { alerts } = run([{ cases: [waiting] }, { cases: [waiting, kase('n', { status: 'pending' })] }]);
    expect(alerts.flat().map((a) => a.key)).toEqual(['new:n']);
  });
});

describe('an ambulance becoming free while calls wait', () => {
  const waiting = [
    kase('p2old', { status: 'pending', priority: 2, call_received_at: ago(900) }),
    kase('p1new', { status: 'pending', priority: 1, call_received_at: ago(120) }),
    kase('p1old', { status: 'pending', priority: 1, call_received_at: ago(370) }),
    kase('busy', { status: 'active', priority: 1, call_received_at: ago(2000) }),
  ];

  it('summarises the queue: count, and the most urgent call\'s priority and wait', () => {
    expect(freeUnitSummary('TS09 EA 1003', waiting, T0)).toBe('TS09 EA 1003 is free — 3 calls waiting, oldest P1 6 min');
    expect(freeUnitSummary('X', [waiting[1]], T0)).toBe('X is free — 1 call waiting, oldest P1 2 min');
    expect(freeUnitSummary('X', [kase('n', { status: 'pending', call_received_at: ago(20) })], T0)).toBe('X is free — 1 call waiting, oldest P1 under 1 min');
    expect(freeUnitSummary('X', [waiting[3]], T0)).toBeNull();
  });

  it('chooses the most urgent, then oldest, waiting call', () => {
    expect(callToAssign(waiting)?.id).toBe('p1old');
    expect(callToAssign([waiting[0], waiting[3]])?.id).toBe('p2old');
    expect(callToAssign([waiting[3]])).toBeUndefined();
    expect(assignLabel('TS09 EA 1003', 1)).toBe('Assign TS09 EA 1003 to oldest P1 call');
  });

  it('alerts when a unit turns available and calls wait, once per freeing', () => {
    const { alerts } = run([
      { cases: waiting, ambulances: [amb(3, 'on_scene', 4)] },
      { cases: waiting, ambulances: [amb(3, 'available', 5)] },
      { cases: waiting, ambulances: [amb(3, 'available', 5)] },
      { cases: waiting, ambulances: [amb(3, 'dispatched', 6)] },
      { cases: waiting, ambulances: [amb(3, 'available', 7)] },
    ]);
    expect(alerts[0]).toEqual([]);
    expect(alerts[1]).toEqual([{
      key: 'free:3:5', reason: 'unit-free', priority: 1, ambulanceId: 3, title: 'TS09 EA 1003 is free',
      text: 'TS09 EA 1003 is free — 3 calls waiting, oldest P1 6 min', quiet: undefined,
    }]);
    expect(alerts[2]).toEqual([]);
    expect(alerts[3]).toEqual([]);
    expect(alerts[4].map((a) => a.key)).toEqual(['free:3:7']);
  });

  it('stays silent when no call waits, for units available from the start, and for new units', () => {
    const none = [waiting[3]];
    const { alerts } = run([
      { cases: none, ambulances: [amb(1, 'transporting'), amb(2, 'available')] },
      { cases: none, ambulances: [amb(1, 'available', 2), amb(2, 'available')] },
      { cases: waiting, ambulances: [amb(1, 'available', 2), amb(2, 'available'), amb(9, 'available')] },
    ]);
    expect(alerts.flat().filter((a) => a.reason === 'unit-free')).toEqual([]);
  });

  it('marks a unit freed by the user\'s own write as quiet', () => {
    const { alerts } = run([
      { cases: waiting, ambulances: [amb(3, 'at_hospital', 1)] },
      { cases: waiting, ambulances: [amb(3, 'available', 2)], ownFreed: new Set([3]) },
    ]);
    expect(alerts[1][0]).toMatchObject({ key: 'free:3:2', quiet: true });
  });
});

describe('which of the user\'s writes free an ambulance', () => {
  const cases = [kase('held', { ambulance_id: 4 }), kase('done', { status: 'resolved', ambulance_id: 5 })];
  it('reads a clear, a closing edit and a delete; nothing else', () => {
    expect(ambulanceFreedBy({ ambulanceId: 3, body: { status: 'cleared' } }, cases)).toBe(3);
    expect(ambulanceFreedBy({ ambulanceId: 3, body: { status: 'on_scene' } }, cases)).toBeNull();
    expect(ambulanceFreedBy({ id: 'held', body: { status: 'closed' } }, cases)).toBe(4);
    expect(ambulanceFreedBy({ id: 'held', body: { status: 'pending' } }, cases)).toBe(4);
    expect(ambulanceFreedBy({ id: 'done', body: { status: 'closed' } }, cases)).toBeNull();
    expect(ambulanceFreedBy({ id: 'held', body: { ambulance_id: 2, status: 'active' } }, cases)).toBe(4);
    expect(ambulanceFreedBy({ id: 'held', body: { ambulance_id: 4 } }, cases)).toBeNull();
    expect(ambulanceFreedBy({ id: 'held', body: { description: 'x' } }, cases)).toBeNull();
    expect(ambulanceFreedBy({ id: 'queued', body: { ambulance_id: 2, status: 'active' } }, [kase('queued', { status: 'pending' })])).toBeNull();
    expect(ambulanceFreedBy('held', cases)).toBe(4);
    expect(ambulanceFreedBy('unknown', cases)).toBeNull();
    expect(ambulanceFreedBy(undefined, cases)).toBeNull();
  });
  it('reads a unit stood down from a call with several', () => {
    const several = [{ ...kase('two', { ambulance_id: 4 }), assignments: [{ id: 11, ambulance_id: 4 }, { id: 12, ambulance_id: 8 }] as any }];
    expect(ambulanceFreedBy({ caseId: 'two', assignmentId: 12, reason: 'first crew is enough' }, several)).toBe(8);
    expect(ambulanceFreedBy({ caseId: 'two', assignmentId: 99, reason: 'x' }, several)).toBeNull();
    expect(ambulanceFreedBy({ caseId: 'two', ambulanceId: 8 }, several)).toBeNull();
  });
});

it('words a wait as a dispatcher says it', () => {
  expect(waitWords(59_999)).toBe('under 1 min');
  expect(waitWords(60_000)).toBe('1 min');
  expect(waitWords(6.5 * 60_000)).toBe('6 min');
});

describe("the freed unit's place in the dispatch ranking", () => {
  const s = (ambulance_id: number, eta_s: number, distance_m: number, stale = false) =>
    ({ ambulance_id, license_plate: `TS09 EA 100${ambulance_id}`, distance_m, eta_s, position_age_s: 10, stale, capability: 'als' as const, can_transport: true, meets_need: true });

  it('gives its distance and ETA to the call, as an estimate', () => {
    expect(freeUnitRankText(3, [s(3, 290, 2100)])).toBe('Estimate: 2.1 km, about 5 min to that call');
  });

  it('names the unit the ranking puts first when that one is sooner', () => {
    expect(freeUnitRankText(3, [s(1, 150, 900), s(3, 290, 2100)]))
      .toBe('Estimate: 2.1 km, about 5 min to that call. TS09 EA 1001 would be there sooner: about 3 min');
  });

  it('says when its own position is stale', () => {
    expect(freeUnitRankText(3, [s(1, 600, 5000), s(3, 60, 400, true)])).toBe('Estimate: 400 m, about 1 min to that call (last position stale)');
  });

  it('says nothing when the ranking does not list it', () => {
    expect(freeUnitRankText(3, [s(1, 150, 900)])).toBeNull();
    expect(freeUnitRankText(3, [])).toBeNull();
  });
});

describe('what the watch remembers', () => {
  it('is the board and the fleet now: a call that left the board is forgotten, so the tick never grows with history', () => {
    const a = kase('a', { status: 'pending', call_received_at: ago(3600) });
    const b = kase('b');
    const { state } = run([{ cases: [] }, { cases: [a, b] }, { cases: [b] }]);
    expect([...state.caseIds]).toEqual(['b']);
    expect([...state.alerted].sort()).toEqual(['new:b']);
  });
});

describe('the notices: ordered, merged, expiring', () => {
  const held = (alert: CallAlert, at = T0): HeldAlert => ({ alert, at });
  const newAlert = (c: CaseDto): CallAlert => ({
    key: `new:${c.id}`, reason: 'new-call', priority: c.priority, caseId: c.id, title: '', text: `new ${c.id}`, ...(c.status === 'pending' ? { waiting: true } : {}),
  });
  const waitAlert = (c: CaseDto): CallAlert => ({ key: `wait:${c.id}`, reason: 'queue-wait', priority: c.priority, caseId: c.id, title: '', text: `wait ${c.id}` });
  const freeAlert = (id: number, priority: 1 | 2 | 3 | 4, version = 1): CallAlert => ({
    key: `free:${id}:${version}`, reason: 'unit-free', priority, ambulanceId: id, title: '', text: `TS09 EA 100${id} is free`,
  });

  it('merges every waiting call into one notice that sums up the queue', () => {
    const calls = [
      kase('p2', { status: 'pending', priority: 2, call_received_at: ago(900) }),
      kase('p1', { status: 'pending', priority: 1, call_received_at: ago(240) }),
      kase('p3', { status: 'pending', priority: 3, call_received_at: ago(60) }),
    ];
    const notices = arrangeNotices(calls.map((c) => held(newAlert(c))), calls, T0);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: 'waiting', priority: 1, text: '3 calls waiting, oldest P1 4 min' });
    expect([...notices[0].keys].sort()).toEqual(['new:p1', 'new:p2', 'new:p3']);
    expect(queueSummary(calls, T0)).toBe('3 calls waiting, oldest P1 4 min');
  });

  it('keeps the call\'s own words while one call waits, and counts it once for its two alerts', () => {
    const c = kase('one', { status: 'pending', priority: 2, call_received_at: ago(300) });
    const notices = arrangeNotices([held(newAlert(c), T0 - 5000), held(waitAlert(c), T0)], [c, kase('run')], T0);
    expect(notices).toEqual([expect.objectContaining({ kind: 'waiting', priority: 2, text: 'wait one', keys: ['new:one', 'wait:one'] })]);
  });

  it('orders by priority: a P1 never sits under a P2, whatever came first', () => {
    const p2 = kase('p2', { status: 'active', priority: 2 });
    const p1 = kase('p1', { status: 'pending', priority: 1 });
    const p3 = kase('p3', { status: 'pending', priority: 3 });
    const notices = arrangeNotices(
      [held(newAlert(p2), T0 - 3000), held(freeAlert(4, 3), T0 - 2000), held(newAlert(p1), T0 - 1000)],
      [p2, p1, p3],
      T0,
    );
    expect(notices.map((n) => [n.kind, n.priority])).toEqual([['waiting', 1], ['new-call', 2], ['unit-free', 3]]);
  });

  it('shows each new running call as its own news, most urgent first', () => {
    const a = kase('a', { status: 'active', priority: 3 });
    const b = kase('b', { status: 'active', priority: 1 });
    const notices = arrangeNotices([held(newAlert(a), T0 - 1000), held(newAlert(b), T0 - 2000)], [a, b], T0);
    expect(notices.map((n) => [n.kind, n.priority, n.text])).toEqual([['new-call', 1, 'new b'], ['new-call', 3, 'new a']]);
  });

  it('expires an alert once acted on or resolved, and only then', () => {
    const waiting = kase('w', { status: 'pending' });
    const running = kase('r', { status: 'active' });
    const units = [amb(1, 'available'), amb(2, 'dispatched')];
    // A waiting call: held while it waits, gone once dispatched, ended or off the board.
    expect(alertResolved(held(waitAlert(waiting)), [waiting], units, T0)).toBe(false);
    expect(alertResolved(held(newAlert(waiting)), [{ ...waiting, status: 'active' }], units, T0)).toBe(true);
    expect(alertResolved(held(waitAlert(waiting)), [{ ...waiting, status: 'active' }], units, T0)).toBe(true);
    expect(alertResolved(held(waitAlert(waiting)), [{ ...waiting, status: 'closed' }], units, T0)).toBe(true);
    expect(alertResolved(held(waitAlert(waiting)), [], units, T0)).toBe(true);
    // A running new call is news for NEWS_MS.
    expect(alertResolved(held(newAlert(running), T0), [running], units, T0 + NEWS_MS - 1)).toBe(false);
    expect(alertResolved(held(newAlert(running), T0), [running], units, T0 + NEWS_MS)).toBe(true);
    // A free unit: held while it is free and a call waits; gone once taken, or once nothing waits.
    expect(alertResolved(held(freeAlert(1, 1)), [waiting], units, T0)).toBe(false);
    expect(alertResolved(held(freeAlert(2, 1)), [waiting], units, T0)).toBe(true);
    expect(alertResolved(held(freeAlert(1, 1)), [running], units, T0)).toBe(true);
    expect(alertResolved(held(freeAlert(9, 1)), [waiting], units, T0)).toBe(true);
  });

  it('prunes what is over, keeps the rest, and holds everything until both lists are known', () => {
    const a = kase('a', { status: 'pending' });
    const b = kase('b', { status: 'pending' });
    const list = [held(newAlert(a)), held(newAlert(b)), held(freeAlert(1, 1))];
    expect(pruneAlerts(list, [a, { ...b, status: 'active' }], [amb(1, 'available')], T0).map((h) => h.alert.key)).toEqual(['new:a', 'free:1:1']);
    expect(pruneAlerts(list, undefined, [amb(1, 'available')], T0)).toHaveLength(3);
  });

  it('says what is folded away past the shown notices, by priority', () => {
    expect(moreText([3, 1, 3])).toBe('3 more alerts: P1, P3');
    expect(moreText([2])).toBe('1 more alert: P2');
  });
});

describe('the hospital end (issue 30)', () => {
  const unit = (over: Partial<CaseDto['assignments'][number]>): CaseDto['assignments'][number] => ({
    id: 41, case_id: 'h', ambulance_id: 1, license_plate: 'TS09 EA 1001', capability: 'als', can_transport: true, status: 'at_hospital',
    dispatched_at: ago(3600), en_route_at: null, on_scene_at: null, transporting_at: null, at_hospital_at: ago(44 * 60), handover_at: null,
    cleared_at: null, cancelled_at: null, destination: { hospital_id: 3, name: 'Royal General', reason: 'closest', set_at: ago(3000) }, destination_eta_s: null, ...over,
  });
  const config = { priorities: [], handover_targets: [15, 30, 45, 60] };

  it('prompts "Release to respond" once a unit has waited 45 min at hospital, and drops it at the handover', () => {
    const waiting = kase('h', { assignments: [unit({})] });
    const start = run([{ cases: [waiting], config }]).state;
    const early = watchStep(start, { cases: [waiting], ambulances: [], meId: ME, nowMs: T0, config });
    expect(early.alerts).toEqual([]);
    const late = watchStep(early.state, { cases: [waiting], ambulances: [], meId: ME, nowMs: T0 + 60_000, config });
    expect(late.alerts.map((a) => [a.reason, a.text])).toEqual([['release', 'Release to respond: TS09 EA 1001 at Royal General 45 min']]);
    expect(watchStep(late.state, { cases: [waiting], ambulances: [], meId: ME, nowMs: T0 + 120_000, config }).alerts).toEqual([]);
    const held: HeldAlert = { alert: late.alerts[0], at: T0 };
    const handed = kase('h', { assignments: [unit({ status: 'handover', handover_at: ago(0) })] });
    expect(alertResolved(held, [waiting], [], T0)).toBe(false);
    expect(alertResolved(held, [handed], [], T0)).toBe(true);
    expect(arrangeNotices([held], [waiting], T0).map((n) => [n.kind, n.text])).toEqual([['hospital', 'Release to respond: TS09 EA 1001 at Royal General 45 min']]);
  });

  it('tells the dispatchers to phone a hospital that did not acknowledge a pre-alert, until it does', () => {
    const c = kase('h', { assignments: [unit({ status: 'transporting', at_hospital_at: null })] });
    const late = {
      prealert_id: 9, case_id: 'h', assignment_id: 41, hospital_id: 3, hospital: 'Royal General', license_plate: 'TS09 EA 1001',
      priority: 1, activation: 'stroke', sent_at: ago(200), alerted_at: ago(0),
    };
    const start = run([{ cases: [c] }]).state;
    const step = watchStep(start, { cases: [c], ambulances: [], meId: ME, nowMs: T0, prealertLate: [late] });
    expect(step.alerts.map((a) => a.text)).toEqual(['Phone Royal General: the pre-alert for TS09 EA 1001 is not acknowledged']);
    const held: HeldAlert = { alert: step.alerts[0], at: T0 };
    expect(pruneAlerts([held], [c], [], T0, new Set([9]))).toHaveLength(1);
    expect(pruneAlerts([held], [c], [], T0, new Set())).toHaveLength(0);
  });
});
