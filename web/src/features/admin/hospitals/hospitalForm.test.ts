import { describe, expect, it } from 'vitest';
import type { HospitalDto } from '../../../api/contract';
import {
  capabilitiesText, emptyHospitalForm, formFromHospital, hospitalBody, hospitalFormProblems, pastedPair, toggleCapability,
} from './hospitalForm';

const hospital: HospitalDto = {
  id: 3, name: 'Royal General', address: '1 High St', latitude: 17.385, longitude: 78.4867, capabilities: ['stroke', 'trauma'],
  status: 'diversion', status_reason: 'CT down', status_updated_at: '2026-12-07T10:00:00.000Z', status_updated_by: 'Hospital', has_link: true,
};

describe('the hospital form', () => {
  it('asks for a name, a position in range and, for a diversion, its reason', () => {
    expect(hospitalFormProblems(emptyHospitalForm)).toEqual({ name: 'Required', latitude: 'Required', longitude: 'Required' });
    expect(hospitalFormProblems({ ...emptyHospitalForm, name: 'A', latitude: '91', longitude: 'east', status: 'diversion' })).toEqual({
      latitude: 'The latitude is between -90 and 90',
      longitude: 'Enter the longitude as a number, e.g. 78.4867',
      status_reason: 'Say why the hospital is on diversion',
    });
    expect(hospitalFormProblems(formFromHospital(hospital))).toEqual({});
  });

  it('a new hospital sends every field, its status included', () => {
    expect(hospitalBody({ ...emptyHospitalForm, name: ' St Mary ', latitude: '17.4', longitude: ' 78.5', capabilities: ['pci'] }, null)).toEqual({
      name: 'St Mary', address: '', latitude: 17.4, longitude: 78.5, capabilities: ['pci'], status: 'open',
    });
  });

  it('an edit leaves the status out unless it changed, so the admin does not become its setter', () => {
    const before = formFromHospital(hospital);
    expect(hospitalBody({ ...before, name: 'Royal General Hospital' }, before)).not.toHaveProperty('status');
    expect(hospitalBody({ ...before, status_reason: 'No beds' }, before)).toMatchObject({ status: 'diversion', status_reason: 'No beds' });
    // Reopening sends no reason: the server clears the diversion's.
    const reopened = hospitalBody({ ...before, status: 'open' }, before);
    expect(reopened).toMatchObject({ status: 'open' });
    expect(reopened).not.toHaveProperty('status_reason');
  });

  it('keeps capabilities in the contract order and says them in words', () => {
    expect(toggleCapability(['trauma'], 'stroke', true)).toEqual(['stroke', 'trauma']);
    expect(toggleCapability(['stroke', 'trauma'], 'stroke', false)).toEqual(['trauma']);
    expect(capabilitiesText(['trauma', 'pci'])).toBe('Heart attack (PCI), Trauma');
    expect(capabilitiesText([])).toBe('None listed');
  });

  it('takes a pasted "lat, lon" pair into both fields', () => {
    expect(pastedPair('17.385, 78.4867')).toEqual({ latitude: '17.385', longitude: '78.4867' });
    expect(pastedPair('-33.9 151.2')).toEqual({ latitude: '-33.9', longitude: '151.2' });
    expect(pastedPair('17.385')).toBeNull();
  });
});
