import { describe, expect, it } from 'vitest';
import { caseStatusTone, formatDateTime, mapLink, matchesSearch, patientNameOf, sortByCreated, typeFromDescription } from './caseRules';
import { ambulanceStatusText, averageCentre, classify, fleetCounts, markerColor, utilizationPercent } from './fleetRules';
import { ambulanceDto, caseDto } from '../testing/dtos';

const kase = caseDto;
const amb = ambulanceDto;

describe('patient name', () => {
  it('takes the text after "Patient: " up to the next comma', () => {
    expect(patientNameOf(kase({ description: 'Type: Fire, Patient: Asha Rao, Floor 3', patient_name: 'X' }))).toBe('Asha Rao');
  });
  it('falls back to patient_name, then Unknown Patient', () => {
    expect(patientNameOf(kase({ description: 'Stroke', patient_name: 'Ravi' }))).toBe('Ravi');
    expect(patientNameOf({ description: 'Stroke', patient_name: '', patientName: '' })).toBe('Unknown Patient');
  });
  it('reads the type after "Type: "', () => {
    expect(typeFromDescription('Type: Accident, Patient: A')).toBe('Accident');
    expect(typeFromDescription('nothing')).toBeNull();
  });
});

describe('fleet classification', () => {
  const cases = [kase({ ambulance_id: 2 }), kase({ id: 'c2', license_plate: 'PL-3', status: 'active' }), kase({ id: 'c3', ambulance_id: 4, status: 'closed' })];
  it('is On Emergency when an active case references the ambulance by id or plate', () => {
    expect(classify(amb({ id: 2, status: 'busy' }), cases)).toBe('emergency');
    expect(classify(amb({ id: 3, license_plate: 'PL-3', status: 'busy' }), cases)).toBe('emergency');
  });
  it('is Available or Busy by status without an active case', () => {
    expect(classify(amb({ id: 4, status: 'available' }), cases)).toBe('available');
    expect(classify(amb({ id: 5, status: 'busy' }), cases)).toBe('busy');
    expect(classify(amb({ id: 6, status: 'maintenance' }), cases)).toBe('other');
  });
  it('counts every class', () => {
    expect(fleetCounts([amb({ id: 2 }), amb({ id: 4 }), amb({ id: 5, status: 'busy' })], cases)).toEqual({ all: 3, emergency: 1, available: 1, busy: 1, other: 0 });
  });
});

describe('utilization', () => {
  it('is busy over total, rounded, 0 without a fleet', () => {
    expect(utilizationPercent(1, 3)).toBe(33);
    expect(utilizationPercent(2, 3)).toBe(67);
    expect(utilizationPercent(1, 8)).toBe(13);
    expect(utilizationPercent(0, 0)).toBe(0);
  });
});

describe('dates', () => {
  it('shows long month, year, day, hour and minute', () => {
    const text = formatDateTime('2026-03-05T14:07:00Z', 'en-US');
    expect(text).toMatch(/March/);
    expect(text).toMatch(/2026/);
    expect(text).toMatch(/\d{1,2}:07/);
  });
  it("says 'Not Available' when absent or invalid", () => {
    expect(formatDateTime(null)).toBe('Not Available');
    expect(formatDateTime('garbage')).toBe('Not Available');
  });
});

describe('small rules', () => {
  it('builds a map link only with both coordinates', () => {
    expect(mapLink(1, 2)).toBe('https://www.openstreetmap.org/?mlat=1&mlon=2#map=18/1/2');
    expect(mapLink(1, null)).toBeNull();
  });
  it('colours markers and badges by status', () => {
    expect(markerColor('available')).toBe('#2e7d32');
    expect(markerColor('maintenance')).toBe('#ed6c02');
    expect(markerColor('busy')).toBe(markerColor('weird'));
    expect(caseStatusTone('active')).toBe('success');
    expect(caseStatusTone('closed')).toBe('error');
    expect(caseStatusTone('other')).toBe('default');
    expect(ambulanceStatusText('lost')).toBe('LOST');
    expect(ambulanceStatusText(null)).toBe('UNKNOWN');
  });
  it('searches case-insensitively and sorts by creation', () => {
    const a = kase({ id: 'a', created_at: '2026-01-02T00:00:00Z', description: 'Heart Attack' });
    const b = kase({ id: 'b', created_at: '2026-01-01T00:00:00Z', email: 'ZED@x.test' });
    expect(matchesSearch(a, 'heart')).toBe(true);
    expect(matchesSearch(b, 'zed@')).toBe(true);
    expect(matchesSearch(b, 'hyderabad', 'Abids, Hyderabad')).toBe(true);
    expect(matchesSearch(b, 'nothing')).toBe(false);
    expect(sortByCreated([a, b], 'asc').map((c) => c.id)).toEqual(['b', 'a']);
    expect(sortByCreated([b, a], 'desc').map((c) => c.id)).toEqual(['a', 'b']);
    expect(sortByCreated([a, b], 'none').map((c) => c.id)).toEqual(['a', 'b']);
  });
  it('centres on the average', () => {
    expect(averageCentre([{ latitude: 10, longitude: 20 }, { latitude: 20, longitude: 40 }])).toEqual([15, 30]);
    expect(averageCentre([])).toBeNull();
  });
});
