import { describe, expect, it } from 'vitest';
import type { HospitalUnitDto, PrealertDto } from '../../api/contract';
import { ageSexText, atmistRows, dayTime, etaLeftS, etaText, newPrealertText, prealertsOf, signsText } from './hospitalPageText';

const T0 = '2026-12-07T12:00:00.000Z';
const at = (s: number) => Date.parse(T0) + s * 1000;

const prealert: PrealertDto = {
  id: 9, assignment_id: 4, hospital_id: 2, age: 67, sex: 'male', time_of_incident: null, mechanism: 'Collapsed at home',
  injuries: '', signs: { hr: 112, sbp: 92, rr: 24, spo2: 91, gcs: 14, temp: null }, treatment: 'Aspirin 300 mg', requirements: 'Cath lab',
  activation: 'stemi', sent_at: T0, acknowledged_at: null, redacted: false,
};
const unit: HospitalUnitDto = {
  assignment_id: 4, call_ref: 'abcd1234', priority: 1, license_plate: 'AMB-1001', capability: 'als', status: 'transporting',
  transporting_at: T0, at_hospital_at: null, handover_at: null, eta_s: 420, position_at: T0, prealert,
};

describe("the hospital page's words", () => {
  it('counts the arrival estimate down from the answer, never below 0', () => {
    expect(etaLeftS(unit, T0, at(0))).toBe(420);
    expect(etaLeftS(unit, T0, at(65))).toBe(355);
    expect(etaLeftS(unit, T0, at(900))).toBe(0);
    expect(etaLeftS({ eta_s: null }, T0, at(0))).toBeNull();
    expect(etaText(unit, T0, at(65))).toMatch(/^ETA 5:55 \(about .+\)$/);
    expect(etaText(unit, T0, at(400))).toBe('Arriving now');
    expect(etaText({ ...unit, eta_s: null }, T0, at(0))).toBe('ETA unknown: no recent position');
    expect(etaText({ ...unit, eta_s: null, status: 'on_scene' }, T0, at(0))).toBe('Not on the way yet');
  });

  it('gives the pre-alert in ATMIST order, unknowns said', () => {
    expect(atmistRows(prealert).map((r) => r.term)).toEqual(['Age / sex', 'Time of incident', 'Mechanism', 'Injuries', 'Signs', 'Treatment', 'Requirements', 'Activation']);
    expect(atmistRows(prealert).map((r) => r.text)).toEqual([
      '67, male', 'Not given', 'Collapsed at home', 'Not given', 'HR 112 · BP 92 · RR 24 · SpO2 91% · GCS 14', 'Aspirin 300 mg', 'Cath lab', 'STEMI',
    ]);
    expect(ageSexText({ age: null, sex: 'unknown' })).toBe('Age unknown, sex unknown');
    expect(signsText({ hr: null, sbp: null, rr: null, spo2: null, gcs: null, temp: 37.8 })).toBe('Temp 37.8 °C');
    expect(signsText({ hr: null, sbp: null, rr: null, spo2: null, gcs: null, temp: null })).toBe('Not given');
  });

  it('announces a new pre-alert with the plate, priority, activation and ETA', () => {
    expect(newPrealertText(unit, prealert, T0, at(0))).toBe('New pre-alert: AMB-1001, P1, STEMI, ETA 7:00');
    expect(newPrealertText({ ...unit, eta_s: null }, { ...prealert, activation: 'none' }, T0, at(0))).toBe('New pre-alert: AMB-1001, P1');
    expect(prealertsOf({ inbound: [unit, { ...unit, assignment_id: 5, prealert: null }], arrived: [] }).map((x) => x.prealert.id)).toEqual([9]);
  });

  it('says a time today, and the day too for another day', () => {
    expect(dayTime(T0, at(60))).toBe(new Date(T0).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }));
    expect(dayTime(T0, at(3 * 86400))).toBe(new Date(T0).toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }));
    expect(dayTime(null, at(0))).toBe('');
  });
});
