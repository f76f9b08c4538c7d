import { describe, expect, it } from 'vitest';
import { distanceMeters } from '../../realtime-server/contract/geo';
import { HOSPITALS, type SimJob, destination, nearestHospital, nextStep } from './callLife';
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
});
