import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssignmentStatus } from '../../realtime-server/contract/callLife';
import { priorityForType } from '../../realtime-server/contract/callLife';
import { primaryAssignment } from '../../realtime-server/contract/capability';
import { ACTIVATIONS, DESTINATION_REASONS, HOSPITAL_CAPABILITIES } from '../../realtime-server/contract/hospitals';
import { hospitalCreateSchema, prealertSchema } from '../../realtime-server/contract/hospitalSchemas';
import { assignmentTimeViolations, checkInvariants } from '../../realtime-server/reliability/invariants';
import { type TestServer, startTestServer } from '../../realtime-server/testing/testServer';
import { demoHistoryRepository } from '../repositories/demoHistoryRepository';
import { prealertRepository } from '../repositories/prealertRepository';
import { DEMO_AMBULANCES, DEMO_CENTRE, DEMO_HOSPITALS, seedDemo } from './demo';
import {
  CANCEL_SHARE, CALLS_PER_DAY, type DemoHistory, type DemoPrealertContent, HANDOVER_TAIL_SHARE, PATIENT_CHOICE_SHARE, PREALERT_ACK_AFTER_S, PRIORITY_MIX,
  SECOND_AMBULANCE_SHARE, SKIP_EN_ROUTE_SHARE, drawHandoverS, generateDemoHistory, hospitalNeedsFor, localHour, mulberry32,
} from './demoHistory';

const NOW = new Date('2026-11-26T09:30:00.000Z');
const DAY_MS = 86_400_000;
const IST = 330;
const fleet = DEMO_AMBULANCES.map((a, i) => ({ id: i + 1, license_plate: a.license_plate, latitude: a.latitude, longitude: a.longitude, capability: a.capability }));
const isCar = (a: { capability: string }) => a.capability === 'responder';
const hospitals = DEMO_HOSPITALS.map((h, i) => ({ ...h, id: i + 1 }));
const generate = (seed = 17, days = 30) => generateDemoHistory({ now: NOW, days, ambulances: fleet, hospitals, random: mulberry32(seed), centre: DEMO_CENTRE, utcOffsetMinutes: IST });
const ms = (iso: string | null) => (iso == null ? null : Date.parse(iso));
/** When an assignment ended: cleared or cancelled (every one ended). */
const endOf = (a: DemoHistory['assignments'][number]) => ms(a.cleared_at ?? a.cancelled_at)!;
/** Each case's assignments, in the order they are inserted (so their ids' order). */
const unitsByCase = (h: DemoHistory) => {
  const by = new Map<string, DemoHistory['assignments']>(h.cases.map((c) => [c.id, []]));
  for (const a of h.assignments) by.get(a.case_id)!.push(a);
  return by;
};
const km = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) => {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2
    + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
};

describe('generateDemoHistory: the stated model', () => {
  const h = generate();
  const share = (n: number) => n / h.cases.length;

  it('covers the 30 days before now, with every day in the model\'s range and about 40 calls a day', () => {
    const start = NOW.getTime() - 30 * DAY_MS;
    const perDay = Array.from({ length: 30 }, () => 0);
    for (const c of h.cases) {
      const t = ms(c.call_received_at)!;
      expect(t).toBeGreaterThanOrEqual(start);
      expect(t).toBeLessThan(NOW.getTime());
      perDay[Math.floor((t - start) / DAY_MS)] += 1;
    }
    // Poisson(40): a day outside 40 ± 4 standard deviations would be a broken generator, not bad luck.
    for (const n of perDay) expect(n).toBeGreaterThanOrEqual(15);
    for (const n of perDay) expect(n).toBeLessThanOrEqual(65);
    expect(h.cases.length / 30).toBeGreaterThan(CALLS_PER_DAY - 5);
    expect(h.cases.length / 30).toBeLessThan(CALLS_PER_DAY + 5);
  });

  it('follows the day curve: the small hours are quieter than late morning and early evening', () => {
    const byHour = Array.from({ length: 24 }, () => 0);
    for (const c of h.cases) byHour[localHour(ms(c.call_received_at)!, IST)] += 1;
    const night = byHour[2] + byHour[3] + byHour[4] + byHour[5];
    const morning = byHour[9] + byHour[10] + byHour[11] + byHour[12];
    const evening = byHour[17] + byHour[18] + byHour[19] + byHour[20];
    expect(morning).toBeGreaterThan(3 * night);
    expect(evening).toBeGreaterThan(3 * night);
  });

  it('mixes the priorities as stated, each with an emergency type the contract gives that priority', () => {
    for (const [priority, expected] of PRIORITY_MIX) {
      expect(Math.abs(share(h.cases.filter((c) => c.priority === priority).length) - expected)).toBeLessThan(0.04);
    }
    for (const c of h.cases) {
      // Priorities 3 and 4 are 'Other' (priorityForType's 3); a 4 is an operator's lowering of it.
      expect(priorityForType(c.case_type)).toBe(Math.min(c.priority, 3));
      if (c.case_type !== 'Other') expect(c.description).toBe(c.case_type);
    }
  });

  it('places every patient within about 10 km of the centre', () => {
    for (const c of h.cases) expect(km(DEMO_CENTRE, { latitude: c.intake_latitude, longitude: c.intake_longitude })).toBeLessThan(10.1);
  });

  it('orders every assignment\'s times, as the invariants read them, after the call came in', () => {
    const caseById = new Map(h.cases.map((c) => [c.id, c]));
    for (const [i, a] of h.assignments.entries()) {
      expect(assignmentTimeViolations({ ...a, id: i + 1 })).toEqual([]);
      expect(ms(a.dispatched_at)! - ms(caseById.get(a.case_id)!.call_received_at)!).toBeGreaterThanOrEqual(30_000);
    }
  });

  it('never books one ambulance for two calls at once', () => {
    for (const unit of fleet) {
      const mine = h.assignments.filter((a) => a.ambulance_id === unit.id).sort((a, b) => ms(a.dispatched_at)! - ms(b.dispatched_at)!);
      for (let i = 1; i < mine.length; i += 1) expect(ms(mine[i].dispatched_at)).toBeGreaterThanOrEqual(endOf(mine[i - 1]));
      expect(mine.every((a) => a.license_plate === unit.license_plate)).toBe(true);
    }
  });

  it('cancels about 4 % before arrival and skips en route on about 5 %; the rest arrive', () => {
    const cancelled = h.assignments.filter((a) => a.status === 'cancelled');
    expect(Math.abs(share(h.cases.filter((c) => c.status === 'closed').length) - CANCEL_SHARE)).toBeLessThan(0.02);
    for (const a of cancelled) expect([a.on_scene_at, a.transporting_at, a.at_hospital_at, a.cleared_at]).toEqual([null, null, null, null]);
    const arrived = h.assignments.filter((a) => a.status === 'cleared' && !isCar(a));
    expect(h.assignments.filter((a) => a.status === 'cleared').every((a) => a.on_scene_at != null)).toBe(true);
    const skipped = arrived.filter((a) => a.en_route_at == null).length / arrived.length;
    expect(Math.abs(skipped - SKIP_EN_ROUTE_SHARE)).toBeLessThan(0.025);
    // Treated on scene (on_scene → cleared) is common for priority 4, rare for 1.
    const treatedOnScene = (p: number) => {
      const ids = new Set(h.cases.filter((c) => c.priority === p).map((c) => c.id));
      const mine = arrived.filter((a) => ids.has(a.case_id));
      return mine.filter((a) => a.transporting_at == null).length / mine.length;
    };
    expect(treatedOnScene(4)).toBeGreaterThan(0.6);
    expect(treatedOnScene(1)).toBeLessThan(0.25);
  });

  it('keeps the stated intervals (turnout, travel from distance and speed, on scene) for the ambulances', () => {
    const caseById = new Map(h.cases.map((c) => [c.id, c]));
    for (const a of h.assignments.filter((x) => x.en_route_at && x.on_scene_at && !isCar(x))) {
      const turnout = (ms(a.en_route_at)! - ms(a.dispatched_at)!) / 1000;
      expect(turnout).toBeGreaterThanOrEqual(19);
      expect(turnout).toBeLessThanOrEqual(121);
      const c = caseById.get(a.case_id)!;
      const unit = fleet.find((u) => u.id === a.ambulance_id)!;
      const kmh = (km(unit, { latitude: c.intake_latitude, longitude: c.intake_longitude }) * 1.3) / ((ms(a.on_scene_at)! - ms(a.en_route_at)!) / 3600_000);
      if (ms(a.on_scene_at)! - ms(a.en_route_at)! > 61_000) expect(kmh).toBeGreaterThan(17); // 30 km/h × noise in [0.6, 1.5]
      if (ms(a.on_scene_at)! - ms(a.en_route_at)! > 61_000) expect(kmh).toBeLessThan(46);
      const leftScene = a.transporting_at ?? a.cleared_at;
      expect((ms(leftScene)! - ms(a.on_scene_at)!) / 60_000).toBeGreaterThanOrEqual(10 - 0.02);
      expect((ms(leftScene)! - ms(a.on_scene_at)!) / 60_000).toBeLessThanOrEqual(35 + 0.02);
    }
  });

  it('ends every call: demo, resolved or closed at its last unit\'s end, none open', () => {
    const byCase = unitsByCase(h);
    expect(h.assignments.length).toBeGreaterThan(h.cases.length);
    for (const c of h.cases) {
      const units = byCase.get(c.id)!;
      expect(units.length).toBeGreaterThanOrEqual(1);
      expect(c.demo).toBe(true);
      // Cancelled only all together, before anyone arrived.
      expect(new Set(units.map((a) => a.status)).size).toBe(1);
      expect(c.status).toBe(units[0].status === 'cancelled' ? 'closed' : 'resolved');
      expect(c.closed_at).toBe(new Date(Math.max(...units.map(endOf))).toISOString());
      expect(ms(c.closed_at)).toBeLessThanOrEqual(NOW.getTime());
      expect(c.dispatched_at).toBe(units[0].dispatched_at);
      expect(c.patient_email).toMatch(/@demo\.lifeline\.invalid$/);
    }
    expect(new Set(h.cases.map((c) => c.id)).size).toBe(h.cases.length);
  });

  it('names each case\'s primary unit by the contract\'s rule, its units in dispatch order', () => {
    const byCase = unitsByCase(h);
    let id = 0;
    for (const c of h.cases) {
      // Ids as the database gives them: in insertion order.
      const units = byCase.get(c.id)!.map((a) => ({ ...a, id: ++id }));
      expect(units.map((a) => a.dispatched_at)).toEqual(units.map((a) => a.dispatched_at).sort());
      expect(c.ambulance_id).toBe(primaryAssignment(units)!.ambulance_id);
      // The primary is a unit that can convey: the car is never the primary of a call over.
      expect(isCar(primaryAssignment(units)!)).toBe(false);
    }
  });

  it('gives every assignment its unit\'s capability, and every call one ambulance or two', () => {
    const capabilityOf = new Map(fleet.map((u) => [u.id, u.capability]));
    for (const a of h.assignments) expect(a.capability).toBe(capabilityOf.get(a.ambulance_id));
    for (const units of unitsByCase(h).values()) {
      expect(units.filter((a) => !isCar(a)).length).toBeGreaterThanOrEqual(1);
      expect(units.filter((a) => !isCar(a)).length).toBeLessThanOrEqual(2);
      expect(units.filter(isCar).length).toBeLessThanOrEqual(1);
      expect(new Set(units.map((a) => a.ambulance_id)).size).toBe(units.length);
    }
  });

  it('sends the responder car to about a third of priority 1 calls, first there as a rule, never conveying, clearing once the ambulance is there', () => {
    const byCase = unitsByCase(h);
    const p1 = h.cases.filter((c) => c.priority === 1);
    const withCar = p1.filter((c) => byCase.get(c.id)!.some(isCar));
    expect(Math.abs(withCar.length / p1.length - 1 / 3)).toBeLessThan(0.1);
    // Only priority 1 calls get the car.
    expect(h.cases.filter((c) => c.priority !== 1 && byCase.get(c.id)!.some(isCar))).toEqual([]);
    const cars = h.assignments.filter(isCar);
    expect(cars.every((a) => a.transporting_at == null && a.at_hospital_at == null)).toBe(true);
    let first = 0;
    let arrived = 0;
    for (const c of withCar) {
      const units = byCase.get(c.id)!;
      const car = units.find(isCar)!;
      const ambulance = units.find((a) => !isCar(a))!;
      expect(car.dispatched_at <= ambulance.dispatched_at).toBe(true);
      if (car.status === 'cancelled') continue;
      arrived += 1;
      if (car.on_scene_at! < ambulance.on_scene_at!) first += 1;
      // Treats until the ambulance is there, then hands over within 20 minutes.
      expect(ms(car.cleared_at)! - ms(ambulance.on_scene_at)!).toBeGreaterThanOrEqual(3 * 60_000 - 1000);
      expect(ms(car.cleared_at)! - Math.max(ms(car.on_scene_at)!, ms(ambulance.on_scene_at)!)).toBeLessThanOrEqual(20 * 60_000 + 1000);
    }
    expect(first / arrived).toBeGreaterThan(0.75);
  });

  it('sends a second ambulance to a few big priority 2 incidents only', () => {
    const byCase = unitsByCase(h);
    const two = (c: DemoHistory['cases'][number]) => byCase.get(c.id)!.filter((a) => !isCar(a)).length === 2;
    const p2 = h.cases.filter((c) => c.priority === 2);
    expect(h.cases.filter((c) => c.priority !== 2 && two(c))).toEqual([]);
    const share = p2.filter(two).length / p2.length;
    expect(share).toBeGreaterThan(SECOND_AMBULANCE_SHARE / 3);
    expect(share).toBeLessThan(SECOND_AMBULANCE_SHARE * 2.5);
  });

  it('is deterministic for a seed, and another seed gives other calls', () => {
    expect(generate()).toEqual(h);
    expect(generate(18).cases[0]).not.toEqual(h.cases[0]);
  });
});

describe('generateDemoHistory: the hospital end (issue 30)', () => {
  // 90 days: enough pre-alerts (about 300) for their shares.
  const h = generate(17, 90);
  const caseById = new Map(h.cases.map((c) => [c.id, c]));
  const placeOf = (a: { case_id: string }) => { const c = caseById.get(a.case_id)!; return { latitude: c.intake_latitude, longitude: c.intake_longitude }; };
  const conveyed = h.assignments.filter((a) => a.transporting_at != null);
  const hospitalById = new Map(hospitals.map((x) => [x.id, x]));
  const min = (from: string | null, to: string | null) => (ms(to)! - ms(from)!) / 60_000;
  const closestTo = (p: { latitude: number; longitude: number }) => [...hospitals].sort((x, y) => km(p, x) - km(p, y))[0];

  it('seeds four open hospitals around the centre, valid for the contract, with different capabilities', () => {
    expect(DEMO_HOSPITALS).toHaveLength(4);
    for (const x of DEMO_HOSPITALS) {
      // As the API would keep it: the capabilities in the contract's order.
      expect(hospitalCreateSchema.parse(x)).toMatchObject({ name: x.name, capabilities: [...x.capabilities], status: 'open' });
      expect(km(DEMO_CENTRE, x)).toBeLessThan(10);
    }
    expect(new Set(DEMO_HOSPITALS.map((x) => [...x.capabilities].sort().join())).size).toBe(4);
    // Every capability somewhere: a stroke, PCI and trauma centre, paediatrics and maternity, burns, and a general hospital.
    expect(new Set(DEMO_HOSPITALS.flatMap((x) => x.capabilities))).toEqual(new Set(HOSPITAL_CAPABILITIES));
    expect(DEMO_HOSPITALS.some((x) => x.capabilities.length === 0)).toBe(true);
  });

  it('gives every transport a destination set as it leaves the scene, mostly the closest hospital, and none to the rest', () => {
    expect(conveyed.length).toBeGreaterThan(h.cases.length / 2);
    for (const a of h.assignments.filter((x) => x.transporting_at == null)) {
      expect([a.destination_hospital_id, a.destination_name, a.destination_reason, a.destination_set_at]).toEqual([null, null, null, null]);
    }
    const reasons = new Map<string, number>();
    for (const a of conveyed) {
      const to = hospitalById.get(a.destination_hospital_id!)!;
      expect(a.destination_name).toBe(to.name);
      expect(a.destination_set_at).toBe(a.transporting_at);
      expect(DESTINATION_REASONS).toContain(a.destination_reason);
      reasons.set(a.destination_reason!, (reasons.get(a.destination_reason!) ?? 0) + 1);
      const closest = closestTo(placeOf(a));
      if (a.destination_reason === 'closest') expect(to).toBe(closest);
      else expect(to).not.toBe(closest);
      if (a.destination_reason === 'specialty') expect(to.capabilities).toEqual(expect.arrayContaining(hospitalNeedsFor(caseById.get(a.case_id)!.case_type)));
      if (a.destination_reason === 'patient_choice') expect(caseById.get(a.case_id)!.priority).toBeGreaterThan(1);
    }
    expect(reasons.get('closest')! / conveyed.length).toBeGreaterThan(0.6);
    expect(reasons.get('specialty')! / conveyed.length).toBeGreaterThan(0.05);
    expect(reasons.get('patient_choice')! / conveyed.length).toBeGreaterThan(PATIENT_CHOICE_SHARE / 4);
    expect(reasons.get('patient_choice')! / conveyed.length).toBeLessThan(PATIENT_CHOICE_SHARE * 2);
  });

  it('takes a Stroke to a stroke centre, a Heart Attack to a PCI centre, and a share of Accidents and Injuries to a trauma centre', () => {
    const to = (type: string) => conveyed.filter((a) => caseById.get(a.case_id)!.case_type === type).map((a) => hospitalById.get(a.destination_hospital_id!)!);
    expect(to('Stroke').length).toBeGreaterThan(50);
    expect(to('Stroke').every((x) => x.capabilities.includes('stroke' as never))).toBe(true);
    expect(to('Heart Attack').every((x) => x.capabilities.includes('pci' as never))).toBe(true);
    const trauma = [...to('Accident'), ...to('Injury')];
    const share = trauma.filter((x) => x.capabilities.includes('trauma' as never)).length / trauma.length;
    // The major ones (35 %) and those whose closest hospital has a trauma team anyway.
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.9);
  });

  it('drives to the destination at the model\'s speed (3 min at least)', () => {
    for (const a of conveyed) {
      const drive = min(a.transporting_at, a.at_hospital_at);
      expect(drive).toBeGreaterThanOrEqual(3 - 0.02);
      const kmh = (km(placeOf(a), hospitalById.get(a.destination_hospital_id!)!) * 1.3) / (drive / 60);
      if (drive > 3.05) expect(kmh).toBeGreaterThan(17);
      if (drive > 3.05) expect(kmh).toBeLessThan(46);
    }
  });

  it('hands over with a long tail: most within 10–20 min, about 1 in 4 past 30, a few past 60; clears 5–20 min after', () => {
    const handover = conveyed.map((a) => min(a.at_hospital_at, a.handover_at));
    const share = (f: (m: number) => boolean) => handover.filter(f).length / handover.length;
    expect(share((m) => m >= 10 && m <= 20)).toBeGreaterThan(0.5);
    expect(Math.abs(share((m) => m > 30) - HANDOVER_TAIL_SHARE)).toBeLessThan(0.05);
    expect(share((m) => m > 60)).toBeGreaterThan(0.01);
    expect(share((m) => m > 60)).toBeLessThan(0.08);
    expect(share((m) => m <= 15)).toBeGreaterThan(0.25);
    expect(Math.min(...handover)).toBeGreaterThanOrEqual(7 - 0.02);
    expect(Math.max(...handover)).toBeLessThanOrEqual(150 + 0.02);
    for (const a of conveyed) {
      expect(min(a.handover_at, a.cleared_at)).toBeGreaterThanOrEqual(5 - 0.02);
      expect(min(a.handover_at, a.cleared_at)).toBeLessThanOrEqual(20 + 0.02);
    }
    // The one place it is drawn: the simulator's waits come from it too.
    const draws = Array.from({ length: 4000 }, ((r) => () => drawHandoverS(r))(mulberry32(5)));
    expect(Math.abs(draws.filter((x) => x > 30 * 60).length / draws.length - HANDOVER_TAIL_SHARE)).toBeLessThan(0.03);
  });

  it('pre-alerts about one conveyed patient in ten, during the drive, to its destination, with its type\'s activation and ATMIST content', () => {
    expect(Math.abs(h.prealerts.length / conveyed.length - 0.1)).toBeLessThan(0.03);
    const unitOf = new Map(conveyed.map((a) => [`${a.case_id} ${a.ambulance_id}`, a]));
    const expected: Record<string, string[]> = {
      Stroke: ['stroke'], 'Heart Attack': ['stemi', 'cardiac_arrest'], Accident: ['trauma'], Injury: ['trauma'], 'Medical Emergency': ['sepsis'], Other: ['none'],
    };
    for (const p of h.prealerts) {
      const a = unitOf.get(`${p.case_id} ${p.ambulance_id}`)!;
      expect(a).toBeDefined();
      expect(p.hospital_id).toBe(a.destination_hospital_id);
      expect(p.sent_at > a.transporting_at!).toBe(true);
      expect(p.sent_at < a.at_hospital_at!).toBe(true);
      expect(ACTIVATIONS).toContain(p.activation);
      const c = caseById.get(p.case_id)!;
      expect(expected[c.case_type]).toContain(p.activation);
      // The content is what the contract's schema makes of it (with the activation): it reads back unchanged.
      const content = JSON.parse(p.content) as DemoPrealertContent;
      expect(prealertSchema.parse({ ...content, activation: p.activation })).toEqual({ ...content, activation: p.activation });
      expect(content.time_of_incident! < c.call_received_at).toBe(true);
      expect(content.mechanism).not.toBe('');
    }
    // The sickest most: half of the conveyed priority 1 patients.
    const p1 = h.prealerts.filter((p) => caseById.get(p.case_id)!.priority === 1).length;
    expect(p1 / h.prealerts.length).toBeGreaterThan(0.5);
    expect(new Set(h.prealerts.map((p) => p.activation)).size).toBeGreaterThanOrEqual(5);
  });

  it('has most pre-alerts acknowledged within 1–3 min, a few late or never, those told to the dispatchers at PREALERT_ACK_AFTER', () => {
    const ackS = h.prealerts.map((p) => (p.acknowledged_at == null ? null : (ms(p.acknowledged_at)! - ms(p.sent_at)!) / 1000));
    const share = (f: (s: number | null) => boolean) => ackS.filter(f).length / ackS.length;
    expect(share((s) => s != null && s >= 59 && s <= 181)).toBeGreaterThan(0.75);
    expect(share((s) => s == null)).toBeGreaterThan(0);
    expect(share((s) => s == null)).toBeLessThan(0.12);
    expect(share((s) => s != null && s > 181)).toBeGreaterThan(0.03);
    for (const [i, p] of h.prealerts.entries()) {
      const waited = ackS[i];
      const late = waited == null || waited > PREALERT_ACK_AFTER_S;
      expect(p.ack_alerted_at).toBe(late ? new Date(ms(p.sent_at)! + PREALERT_ACK_AFTER_S * 1000).toISOString() : null);
      if (p.acknowledged_at) expect(ms(p.acknowledged_at)).toBeLessThanOrEqual(NOW.getTime());
    }
  });

  it('without hospitals: transports hand over all the same, with no destination and no pre-alert', () => {
    const bare = generateDemoHistory({ now: NOW, days: 7, ambulances: fleet, random: mulberry32(17), centre: DEMO_CENTRE });
    const transports = bare.assignments.filter((a) => a.transporting_at != null);
    expect(transports.length).toBeGreaterThan(50);
    expect(transports.every((a) => a.handover_at != null && a.destination_hospital_id == null)).toBe(true);
    expect(bare.prealerts).toEqual([]);
    for (const [i, a] of bare.assignments.entries()) expect(assignmentTimeViolations({ ...a, id: i + 1 })).toEqual([]);
  });
});

describe('the demo history on a first start', () => {
  let seeded: TestServer;
  let bare: TestServer;
  beforeAll(async () => {
    [seeded, bare] = await Promise.all([
      startTestServer({ env: { SEED: 'demo', DEMO_HISTORY_DAYS: '30' } }),
      startTestServer({ env: { SEED: 'none', DEMO_HISTORY_DAYS: '30' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([seeded?.dispose(), bare?.dispose()]);
  });

  it('SEED=demo: about 30 days of closed demo calls, none on the boards, the invariants holding', async () => {
    const admin = await seeded.signIn('admin');
    const board = await seeded.api('GET', '/api/cases', { token: admin });
    expect(board.status).toBe(200);
    expect(board.body.counts).toMatchObject({ active: 0, pending: 0 });
    expect(board.body.counts.total).toBeGreaterThan(30 * 30);
    // Every demo call, page by page from history.
    type Listed = { demo: boolean; status: string; call_received_at: string; assignment: { status: string } | null };
    const cases: Listed[] = [];
    for (let cursor = ''; ;) {
      const page = await seeded.api('GET', `/api/cases?scope=all&limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: admin });
      expect(page.status).toBe(200);
      cases.push(...page.body.cases);
      if (!page.body.next_cursor) break;
      cursor = page.body.next_cursor;
    }
    expect(cases).toHaveLength(board.body.counts.total);
    expect(cases.length).toBeGreaterThan(30 * 30);
    expect(cases.every((c) => c.demo && ['resolved', 'closed'].includes(c.status))).toBe(true);
    expect(cases.every((c) => c.assignment && ['cleared', 'cancelled'].includes(c.assignment.status))).toBe(true);
    const received = cases.map((c) => Date.parse(c.call_received_at));
    expect((Date.now() - Math.min(...received)) / DAY_MS).toBeGreaterThan(29);
    expect((Date.now() - Math.min(...received)) / DAY_MS).toBeLessThanOrEqual(30);
    const ambulances = await seeded.api('GET', '/api/ambulances', { token: await seeded.signIn('admin') });
    expect((ambulances.body.ambulances as { status: string }[]).every((a) => a.status === 'available')).toBe(true);
    expect((await checkInvariants(seeded.ctx.db)).violations).toEqual([]);
  });

  it('SEED=demo: a fleet of 5 ALS, 2 BLS and a responder car; each demo case names its primary unit, its ambulance that one\'s', async () => {
    const admin = await seeded.signIn('admin');
    const { ambulances } = (await seeded.api('GET', '/api/ambulances', { token: admin })).body as { ambulances: { license_plate: string; capability: string; can_transport: boolean }[] };
    expect(ambulances.map((a) => [a.license_plate, a.capability]).sort()).toEqual(DEMO_AMBULANCES.map((a) => [a.license_plate, a.capability]).sort());
    const count = (c: string) => ambulances.filter((a) => a.capability === c).length;
    expect([count('als'), count('bls'), count('responder')]).toEqual([5, 2, 1]);
    expect(ambulances.filter((a) => !a.can_transport).map((a) => a.capability)).toEqual(['responder']);

    const db = seeded.ctx.db;
    const cases: { id: string; priority: number; assignment_id: number; ambulance_id: number }[] = await db('cases').where('demo', true).select('id', 'priority', 'assignment_id', 'ambulance_id');
    const rows: { id: number; case_id: string; ambulance_id: number; capability: string; status: AssignmentStatus; dispatched_at: string; transporting_at: string | null; at_hospital_at: string | null }[] = await db('assignments')
      .select('id', 'case_id', 'ambulance_id', 'capability', 'status', 'dispatched_at', 'transporting_at', 'at_hospital_at');
    const byCase = new Map<string, typeof rows>();
    for (const a of rows) byCase.set(a.case_id, [...(byCase.get(a.case_id) ?? []), { ...a, id: Number(a.id), ambulance_id: Number(a.ambulance_id) }]);
    for (const c of cases) {
      const primary = primaryAssignment(byCase.get(c.id)!)!;
      expect([Number(c.assignment_id), Number(c.ambulance_id)]).toEqual([primary.id, primary.ambulance_id]);
    }
    const cars = rows.filter((a) => a.capability === 'responder');
    expect(cars.length).toBeGreaterThan(0);
    expect(cars.every((a) => a.transporting_at == null && a.at_hospital_at == null)).toBe(true);
    const p1 = cases.filter((c) => c.priority === 1);
    const share = p1.filter((c) => byCase.get(c.id)!.some((a) => a.capability === 'responder')).length / p1.length;
    // Any 30 days before the real now (the fixed NOW above holds it to a third ± 0.1): about 120 priority 1 calls, so wider.
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.5);
    // The API shows every unit of a call, the primary as `assignment`.
    const withCar = p1.find((c) => byCase.get(c.id)!.length > 1)!;
    const detail = await seeded.api('GET', `/api/cases/${withCar.id}`, { token: admin });
    expect(detail.status).toBe(200);
    expect(detail.body.case.assignments).toHaveLength(byCase.get(withCar.id)!.length);
    expect(detail.body.case.assignment.id).toBe(Number(withCar.assignment_id));
  });

  it('SEED=demo: the four hospitals, open; transports with destinations and handovers; pre-alerts of the right units, none left for the late-acknowledgement sweep', async () => {
    const admin = await seeded.signIn('admin');
    const { hospitals: listed } = (await seeded.api('GET', '/api/hospitals', { token: admin })).body as { hospitals: { name: string; capabilities: string[]; status: string }[] };
    expect(listed.map((x) => [x.name, x.capabilities, x.status]).sort()).toEqual(DEMO_HOSPITALS.map((x) => [x.name, [...x.capabilities], 'open']).sort());
    const db = seeded.ctx.db;
    const conveyed: { id: number; case_id: string; destination_hospital_id: number | null; handover_at: string | null }[] = await db('assignments').whereNotNull('transporting_at')
      .select('id', 'case_id', 'destination_hospital_id', 'handover_at');
    expect(conveyed.length).toBeGreaterThan(500);
    expect(conveyed.every((a) => a.destination_hospital_id != null && a.handover_at != null)).toBe(true);
    const prealerts: { assignment_id: number; case_id: string; hospital_id: number }[] = await db('prealerts').select('assignment_id', 'case_id', 'hospital_id');
    expect(prealerts.length).toBeGreaterThan(conveyed.length / 20);
    const byId = new Map(conveyed.map((a) => [Number(a.id), a]));
    for (const p of prealerts) {
      const a = byId.get(Number(p.assignment_id))!;
      expect([a.case_id, Number(a.destination_hospital_id)]).toEqual([p.case_id, Number(p.hospital_id)]);
    }
    // Starting the server does not alert the dispatchers about the history's unacknowledged pre-alerts.
    expect(await prealertRepository.unacknowledgedBefore(db, new Date().toISOString())).toEqual([]);
    // The API shows a transport's destination.
    const withDestination = (await seeded.api('GET', `/api/cases/${conveyed[0].case_id}`, { token: admin })).body.case.assignments
      .find((u: { id: number }) => u.id === Number(conveyed[0].id));
    expect(withDestination.destination).toMatchObject({ hospital_id: Number(conveyed[0].destination_hospital_id) });
    expect(withDestination.handover_at).toBe(conveyed[0].handover_at);
  });

  it('never again on a database that has data: a second seeding adds nothing', async () => {
    const before = await demoHistoryRepository.count(seeded.ctx.db);
    expect(await seedDemo(seeded.ctx.db, { historyDays: 30 })).toBe(false);
    expect(await demoHistoryRepository.count(seeded.ctx.db)).toBe(before);
    expect(await seeded.ctx.db('hospitals').count({ n: '*' }).first()).toMatchObject({ n: DEMO_HOSPITALS.length });
  });

  it('SEED=none: no demo history and no hospitals, whatever DEMO_HISTORY_DAYS says', async () => {
    expect((await checkInvariants(bare.ctx.db)).counted.cases).toBe(0);
    expect(Number((await bare.ctx.db('hospitals').count({ n: '*' }).first())?.n)).toBe(0);
  });
});
