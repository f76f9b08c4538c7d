import { describe, expect, it } from 'vitest';
import type { AssignmentDto, AssignmentStatus } from '../../realtime-server/contract/callLife';
import { distanceMeters } from '../../realtime-server/contract/geo';
import { HOSPITALS, type SimJob, callJobs, crewOnScene, destination, nearestHospital, nextStep } from './callLife';
import { moveBy, step } from './motion';

const centre = { latitude: 17.385, longitude: 78.4867 };
const o = { turnoutS: 5, onSceneS: 20, atHospitalS: 15 };
const T = 1_800_000_000_000;
const patient = moveBy(centre, 90, 1500);
const job = (patch: Partial<SimJob> = {}): SimJob => ({ caseId: 'c', status: 'dispatched', since: T, patient, hospital: HOSPITALS[0], ...patch });

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

  it('drives to the hospital, is at hospital on arrival, and clears after its time there', () => {
    const j = job({ status: 'transporting' });
    expect(destination(j)).toEqual(HOSPITALS[0]);
    expect(nextStep(j, patient, T + 600_000, o)).toBeNull();
    expect(nextStep(j, HOSPITALS[0], T + 1, o)).toBe('at_hospital');
    expect(nextStep(job({ status: 'at_hospital' }), HOSPITALS[0], T + 14_000, o)).toBeNull();
    expect(nextStep(job({ status: 'at_hospital' }), HOSPITALS[0], T + 15_000, o)).toBe('cleared');
    expect(nextStep(job({ status: 'cleared' }), HOSPITALS[0], T + 99_000, o)).toBeNull();
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
    expect(steps).toEqual(['en_route', 'on_scene', 'transporting', 'at_hospital', 'cleared']);
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
    id, case_id: 'c', ambulance_id: id, license_plate: `TS09 EA 100${id}`, capability: 'als', can_transport: true, status,
    dispatched_at: iso(T), en_route_at: null, on_scene_at: null, transporting_at: null, at_hospital_at: null, handover_at: null, cleared_at: null, cancelled_at: null, destination: null, destination_eta_s: null, ...patch,
  });
  const car = (status: AssignmentStatus, patch: Partial<AssignmentDto> = {}) => unit(8, status, { capability: 'responder', can_transport: false, ...patch });
  const call = (...assignments: AssignmentDto[]) => ({ id: 'c', latitude: patient.latitude, longitude: patient.longitude, assignments });

  it('drives every open unit of the call, each from its own step; the car never to hospital', () => {
    const jobs = callJobs(call(car('on_scene', { on_scene_at: iso(T + 60_000) }), unit(1, 'en_route', { en_route_at: iso(T + 30_000) }), unit(2, 'cleared')), HOSPITALS[1]);
    expect([...jobs.keys()]).toEqual([8, 1]);
    expect(jobs.get(1)).toEqual({ caseId: 'c', status: 'en_route', since: T + 30_000, patient: { latitude: patient.latitude, longitude: patient.longitude }, hospital: HOSPITALS[1], waitForCrew: false });
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
    expect(steps.filter((x) => x.startsWith('ambulance'))).toEqual(['ambulance en_route', 'ambulance on_scene', 'ambulance transporting', 'ambulance at_hospital', 'ambulance cleared']);
    expect(steps.indexOf('car on_scene')).toBeLessThan(steps.indexOf('ambulance on_scene'));
    expect(steps.indexOf('car cleared')).toBeGreaterThan(steps.indexOf('ambulance on_scene'));
  });
});
