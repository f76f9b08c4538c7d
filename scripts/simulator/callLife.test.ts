import { describe, expect, it } from 'vitest';
import type { AssignmentDto, AssignmentStatus } from '../../realtime-server/contract/callLife';
import { distanceMeters } from '../../realtime-server/contract/geo';
import type { HospitalDto, HospitalSuggestion } from '../../realtime-server/contract/hospitals';
import { prealertSchema } from '../../realtime-server/contract/hospitalSchemas';
import { DEMO_HOSPITALS } from '../../db/seeds/demo';
import { mulberry32 } from '../../db/seeds/demoHistory';
import {
  HOSPITALS, type Hospital, type SimCall, type SimJob, asHospital, callJobs, chooseDestination, crewOnScene, destination, handoverWaitS, nearestHospital,
  needsFor, nextStep, prealertBody,
} from './callLife';
import { moveBy, step } from './motion';

const centre = { latitude: 17.385, longitude: 78.4867 };
const o = { turnoutS: 5, onSceneS: 20, atHospitalS: 15, afterHandoverS: 5 };
const T = 1_800_000_000_000;
const patient = moveBy(centre, 90, 1500);
const call: SimCall = { caseType: 'Stroke', description: 'Stroke', priority: 1, receivedAt: T - 60_000 };
const job = (patch: Partial<SimJob> = {}): SimJob => ({
  caseId: 'c', assignmentId: 1, status: 'dispatched', since: T, patient, hospital: HOSPITALS[0], destinationSet: false, call, ...patch,
});
/** This job's drawn wait at hospital before handover, in whole ms (up). */
const handoverMs = (assignmentId = 1) => Math.ceil(handoverWaitS(assignmentId, o.atHospitalS) * 1000);

describe('the simulator\'s call life', () => {
  it('stands through the turnout, then goes en route', () => {
    expect(destination(job())).toBeNull();
    expect(nextStep(job(), centre, T + 4_000, o)).toBeNull();
    expect(nextStep(job(), centre, T + 5_000, o)).toBe('en_route');
  });

  it('is on scene only on arrival (or after the on-scene wait when the patient shared no location)', () => {
    const j = job({ status: 'en_route' });
    expect(destination(j)).toEqual(patient);
    expect(nextStep(j, centre, T + 600_000, o)).toBeNull();
    expect(nextStep(j, moveBy(patient, 0, 10), T + 1, o)).toBe('on_scene');
    const blind = job({ status: 'en_route', patient: null });
    expect(nextStep(blind, centre, T + 19_000, o)).toBeNull();
    expect(nextStep(blind, centre, T + 20_000, o)).toBe('on_scene');
  });

  it('after its time on scene transports, or clears when the patient is treated there', () => {
    expect(nextStep(job({ status: 'on_scene' }), patient, T + 19_000, o)).toBeNull();
    expect(nextStep(job({ status: 'on_scene' }), patient, T + 20_000, o)).toBe('transporting');
    expect(nextStep(job({ status: 'on_scene', hospital: null }), patient, T + 20_000, o)).toBe('cleared');
  });

  it('drives to the hospital, is at hospital on arrival, hands over after its drawn wait there, and clears a little after', () => {
    const j = job({ status: 'transporting' });
    expect(destination(j)).toEqual(HOSPITALS[0]);
    expect(nextStep(j, patient, T + 600_000, o)).toBeNull();
    expect(nextStep(j, HOSPITALS[0], T + 1, o)).toBe('at_hospital');
    expect(destination(job({ status: 'at_hospital' }))).toEqual(HOSPITALS[0]);
    expect(nextStep(job({ status: 'at_hospital' }), HOSPITALS[0], T + handoverMs() - 2, o)).toBeNull();
    expect(nextStep(job({ status: 'at_hospital' }), HOSPITALS[0], T + handoverMs(), o)).toBe('handover');
    // Handed over, it stays at the hospital until it clears.
    expect(destination(job({ status: 'handover' }))).toEqual(HOSPITALS[0]);
    expect(nextStep(job({ status: 'handover' }), HOSPITALS[0], T + 4_999, o)).toBeNull();
    expect(nextStep(job({ status: 'handover' }), HOSPITALS[0], T + 5_000, o)).toBe('cleared');
    expect(nextStep(job({ status: 'cleared' }), HOSPITALS[0], T + 99_000, o)).toBeNull();
  });

  it('waits for handover with the demo history\'s long tail at the simulator\'s pace, the same wait for the same unit', () => {
    // At-hospital 15 s stands for 15 min: a second a minute, so the NHS's 15, 30 and 60 minutes are 15, 30 and 60 s.
    const waits = Array.from({ length: 2000 }, (_, i) => handoverWaitS(i + 1, 15));
    const share = (f: (s: number) => boolean) => waits.filter(f).length / waits.length;
    expect(share((s) => s >= 10 && s <= 20)).toBeGreaterThan(0.5);
    expect(Math.abs(share((s) => s > 30) - 0.25)).toBeLessThan(0.04);
    expect(share((s) => s > 60)).toBeGreaterThan(0.01);
    expect(share((s) => s > 60)).toBeLessThan(0.08);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(7);
    expect(Math.max(...waits)).toBeLessThanOrEqual(150);
    // Scaled by the pace, and drawn from the assignment: a reread call keeps its unit's wait.
    expect(handoverWaitS(42, 30)).toBeCloseTo(2 * handoverWaitS(42, 15), 9);
    expect(handoverWaitS(42, 15)).toBe(handoverWaitS(42, 15));
    expect(handoverWaitS(0, 15)).toBeGreaterThan(0);
  });

  it('runs a whole life with the motion model: every step, in order', () => {
    let j = job();
    let at = centre;
    const steps: string[] = [];
    for (let t = 0; t < 3600 && j.status !== 'cleared'; t += 2) {
      const target = destination(j);
      if (target) at = step({ position: at, heading: 0 }, { dt: 2, speedKmh: 45, target, centre, radiusM: 8000, random: () => 0.5 }).position;
      const next = nextStep(j, at, T + t * 1000, o);
      if (next) {
        steps.push(next);
        j = { ...j, status: next, since: T + t * 1000 };
      }
    }
    expect(steps).toEqual(['en_route', 'on_scene', 'transporting', 'at_hospital', 'handover', 'cleared']);
    expect(distanceMeters(at, HOSPITALS[0])).toBeLessThan(30);
  });

  it('takes the patient to the nearest hospital', () => {
    expect(nearestHospital({ latitude: 17.35, longitude: 78.55 }).name).toBe('Kamineni Hospital, LB Nagar');
    expect(nearestHospital({ latitude: 17.37, longitude: 78.474 }).name).toBe('Osmania General Hospital');
  });

  it('never conveys with a unit that cannot: a car on scene waits for its call\'s ambulance, then clears', () => {
    const car = job({ status: 'on_scene', hospital: null, waitForCrew: true });
    expect(nextStep(car, patient, T + 3600_000, o)).toBeNull();
    expect(nextStep({ ...car, waitForCrew: false }, patient, T + 19_000, o)).toBeNull();
    expect(nextStep({ ...car, waitForCrew: false }, patient, T + 20_000, o)).toBe('cleared');
    // Getting there is not held: only the time on scene.
    expect(nextStep(job({ status: 'dispatched', hospital: null, waitForCrew: true }), centre, T + 5_000, o)).toBe('en_route');
  });
});

describe('the simulator\'s units of one call', () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const unit = (id: number, status: AssignmentStatus, patch: Partial<AssignmentDto> = {}): AssignmentDto => ({
    id: id + 100, case_id: 'c', ambulance_id: id, license_plate: `TS09 EA 100${id}`, capability: 'als', can_transport: true, status,
    dispatched_at: iso(T), en_route_at: null, on_scene_at: null, transporting_at: null, at_hospital_at: null, handover_at: null, cleared_at: null, cancelled_at: null, destination: null, destination_eta_s: null, ...patch,
  });
  const car = (status: AssignmentStatus, patch: Partial<AssignmentDto> = {}) => unit(8, status, { capability: 'responder', can_transport: false, ...patch });
  const call = (...assignments: AssignmentDto[]) => ({
    id: 'c', latitude: patient.latitude, longitude: patient.longitude, assignments,
    caseType: 'Heart Attack', description: 'Heart Attack - collapsed at the gym', priority: 1, call_received_at: iso(T - 90_000),
  });

  it('drives every open unit of the call, each from its own step; the car never to hospital', () => {
    const jobs = callJobs(call(car('on_scene', { on_scene_at: iso(T + 60_000) }), unit(1, 'en_route', { en_route_at: iso(T + 30_000) }), unit(2, 'cleared')), HOSPITALS[1]);
    expect([...jobs.keys()]).toEqual([8, 1]);
    expect(jobs.get(1)).toEqual({
      caseId: 'c', assignmentId: 101, status: 'en_route', since: T + 30_000, patient: { latitude: patient.latitude, longitude: patient.longitude },
      hospital: HOSPITALS[1], destinationSet: false, waitForCrew: false,
      call: { caseType: 'Heart Attack', description: 'Heart Attack - collapsed at the gym', priority: 1, receivedAt: T - 90_000 },
    });
    expect(jobs.get(8)).toMatchObject({ status: 'on_scene', since: T + 60_000, hospital: null, waitForCrew: true });
  });

  it('lets the car go once an ambulance of its call is on scene, counting its time on scene from that arrival', () => {
    const jobs = callJobs(call(car('on_scene', { on_scene_at: iso(T + 60_000) }), unit(1, 'on_scene', { on_scene_at: iso(T + 300_000) })), null);
    expect(jobs.get(8)).toMatchObject({ waitForCrew: false, since: T + 300_000 });
    expect(nextStep(jobs.get(8)!, patient, T + 319_000, o)).toBeNull();
    expect(nextStep(jobs.get(8)!, patient, T + 320_000, o)).toBe('cleared');
    // Already gone to hospital: arrived all the same.
    expect(callJobs(call(car('on_scene', { on_scene_at: iso(T) }), unit(1, 'transporting', { on_scene_at: iso(T + 9_000) })), HOSPITALS[0]).get(8)).toMatchObject({ waitForCrew: false, since: T + 9_000 });
    // No ambulance left on the call (stood down): the car clears after its own time on scene.
    expect(callJobs(call(car('on_scene', { on_scene_at: iso(T) }), unit(1, 'cancelled')), null).get(8)).toMatchObject({ waitForCrew: false, since: T });
  });

  it('hands over at once when the simulator itself reports the ambulance on scene', () => {
    const jobs = callJobs(call(car('on_scene', { on_scene_at: iso(T) }), unit(1, 'en_route', { en_route_at: iso(T) })), null);
    jobs.set(5, { ...jobs.get(8)!, caseId: 'other' });
    crewOnScene(jobs, 'c', T + 100_000);
    expect(jobs.get(8)).toMatchObject({ waitForCrew: false, since: T + 100_000 });
    expect(jobs.get(5)).toMatchObject({ waitForCrew: true, since: T });
  });

  it('runs a car and an ambulance together: the car treats first, clears after the ambulance arrives, never transports', () => {
    let assignments = [car('dispatched'), unit(1, 'dispatched')];
    const at = new Map<number, { latitude: number; longitude: number }>([[8, moveBy(patient, 180, 800)], [1, moveBy(patient, 0, 3000)]]);
    const steps: string[] = [];
    for (let t = 0; t < 3600 && assignments.some((a) => a.status !== 'cleared'); t += 2) {
      const now = T + t * 1000;
      const jobs = callJobs(call(...assignments), HOSPITALS[0]);
      for (const [id, j] of jobs) {
        const target = destination(j);
        if (target) at.set(id, step({ position: at.get(id)!, heading: 0 }, { dt: 2, speedKmh: 45, target, centre, radiusM: 8000, random: () => 0.5 }).position);
        const next = nextStep(j, at.get(id)!, now, o);
        if (!next) continue;
        steps.push(`${id === 8 ? 'car' : 'ambulance'} ${next}`);
        assignments = assignments.map((a) => (a.ambulance_id === id ? { ...a, status: next, [`${next}_at`]: iso(now) } : a));
      }
    }
    expect(steps.filter((x) => x.startsWith('car'))).toEqual(['car en_route', 'car on_scene', 'car cleared']);
    expect(steps.filter((x) => x.startsWith('ambulance'))).toEqual(['ambulance en_route', 'ambulance on_scene', 'ambulance transporting', 'ambulance at_hospital', 'ambulance handover', 'ambulance cleared']);
    expect(steps.indexOf('car on_scene')).toBeLessThan(steps.indexOf('ambulance on_scene'));
    expect(steps.indexOf('car cleared')).toBeGreaterThan(steps.indexOf('ambulance on_scene'));
  });
});

describe('the simulator\'s hospital end', () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const seeded: HospitalDto[] = DEMO_HOSPITALS.map((h, i) => ({
    ...h, id: i + 1, capabilities: [...h.capabilities], status: 'open', status_reason: null, status_updated_at: iso(T), status_updated_by: null, has_link: false,
  }));
  const major = asHospital(seeded[0]);
  const general = asHospital(seeded[3]);
  const suggestion = (h: HospitalDto, etaS: number, patch: Partial<HospitalSuggestion> = {}): HospitalSuggestion => ({
    hospital: h, distance_m: etaS * 8, eta_s: etaS, meets_needs: true, missing: [], diversion: false, ...patch,
  });

  it('asks for the needs of the call\'s emergency type', () => {
    expect(needsFor('Stroke')).toEqual(['stroke']);
    expect(needsFor('Heart Attack')).toEqual(['pci']);
    expect(needsFor('Accident')).toEqual(['trauma']);
    expect(needsFor('Injury')).toEqual(['trauma']);
    expect(needsFor('Medical Emergency')).toEqual([]);
    expect(needsFor(null)).toEqual([]);
  });

  it('takes the first suggestion: closest, or specialty when an open hospital nearer lacks the need', () => {
    expect(chooseDestination([])).toBeNull();
    // No needs: the nearest first.
    expect(chooseDestination([suggestion(seeded[3], 300), suggestion(seeded[0], 600)])).toEqual({ hospital: general, reason: 'closest' });
    // A stroke: the stroke centre ranked first though farther.
    expect(chooseDestination([suggestion(seeded[0], 600), suggestion(seeded[3], 300, { meets_needs: false, missing: ['stroke'] })])).toEqual({ hospital: major, reason: 'specialty' });
    // The nearest meets the need anyway.
    expect(chooseDestination([suggestion(seeded[0], 300), suggestion(seeded[3], 600, { meets_needs: false })])).toEqual({ hospital: major, reason: 'closest' });
    // A nearer one on diversion is ranked after: the open one is the closest one can go to.
    expect(chooseDestination([suggestion(seeded[0], 600), suggestion(seeded[3], 300, { diversion: true })])).toEqual({ hospital: major, reason: 'closest' });
    // No hospital meets the need: the nearest, as ranked.
    expect(chooseDestination([suggestion(seeded[3], 300, { meets_needs: false }), suggestion(seeded[1], 500, { meets_needs: false })])).toEqual({ hospital: general, reason: 'closest' });
  });

  it('drives each unit to the destination the server holds for it, a hospital of the server\'s', () => {
    const hospitals = new Map<number, Hospital>(seeded.map((h) => [h.id, asHospital(h)]));
    const base = { dispatched_at: iso(T), en_route_at: null, on_scene_at: null, transporting_at: null, at_hospital_at: null, handover_at: null, cleared_at: null, cancelled_at: null, destination_eta_s: null };
    const unit = (id: number, status: AssignmentStatus, hospitalId: number | null, patch: Partial<AssignmentDto> = {}): AssignmentDto => ({
      ...base, id: id + 100, case_id: 'c', ambulance_id: id, license_plate: `TS09 EA 100${id}`, capability: 'als', can_transport: true, status,
      destination: hospitalId == null ? null : { hospital_id: hospitalId, name: seeded[hospitalId - 1]?.name ?? 'Deleted Hospital', reason: 'specialty', set_at: iso(T) }, ...patch,
    });
    const c = {
      id: 'c', latitude: patient.latitude, longitude: patient.longitude, caseType: 'Stroke', description: 'Stroke', priority: 1, call_received_at: iso(T),
      assignments: [unit(1, 'transporting', 1, { transporting_at: iso(T + 5000) }), unit(2, 'on_scene', null), unit(3, 'at_hospital', 9), unit(8, 'on_scene', 1, { capability: 'responder', can_transport: false })],
    };
    const jobs = callJobs(c, HOSPITALS[2], hospitals);
    expect(jobs.get(1)).toMatchObject({ assignmentId: 101, hospital: major, destinationSet: true, since: T + 5000 });
    expect(destination(jobs.get(1)!)).toEqual(major);
    // None set yet: the simulator's own choice for the call (to be replaced as it leaves the scene).
    expect(jobs.get(2)).toMatchObject({ hospital: HOSPITALS[2], destinationSet: false });
    // A hospital the server no longer lists: the call's choice.
    expect(jobs.get(3)).toMatchObject({ hospital: HOSPITALS[2], destinationSet: false });
    // A unit that cannot convey goes nowhere.
    expect(jobs.get(8)).toMatchObject({ hospital: null, destinationSet: false });
    // A destination set on a call the simulator meant to treat on scene: the unit takes the patient there.
    const treated = callJobs({ ...c, assignments: [unit(1, 'on_scene', 4, { on_scene_at: iso(T) })] }, null, hospitals);
    expect(treated.get(1)).toMatchObject({ hospital: general, destinationSet: true });
    expect(nextStep(treated.get(1)!, patient, T + 20_000, o)).toBe('transporting');
  });

  it('pre-alerts with ATMIST the contract accepts, the activation from the type', () => {
    const random = mulberry32(3);
    for (const [type, activations] of [['Stroke', ['stroke']], ['Heart Attack', ['stemi', 'cardiac_arrest']], ['Accident', ['trauma']], ['Injury', ['trauma']], ['Medical Emergency', ['sepsis']], [null, ['none']]] as const) {
      for (let i = 0; i < 20; i++) {
        const body = prealertBody({ caseType: type, description: 'Breathless at home', priority: 2, receivedAt: T }, random);
        expect(activations).toContain(body.activation);
        expect(prealertSchema.parse(body)).toEqual(body);
        expect(Date.parse(body.time_of_incident!)).toBeLessThan(T);
      }
    }
  });
});
