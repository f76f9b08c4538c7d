import { describe, expect, it } from 'vitest';
import { ambulanceDto } from '../../../testing/dtos';
import { CAPABILITY_CHOICES, ambulanceBody, emptyAmbulanceForm, formFromAmbulance } from './ambulanceForm';

describe('the ambulance form\'s capability', () => {
  it('a new ambulance is ALS unless the admin picks another', () => {
    expect(emptyAmbulanceForm.capability).toBe('als');
    expect(ambulanceBody({ ...emptyAmbulanceForm, license_plate: 'CAR 1', capability: 'responder' }, false))
      .toEqual({ license_plate: 'CAR 1', status: 'available', email: null, capability: 'responder' });
  });
  it('an edit starts from the unit\'s own capability', () => {
    expect(formFromAmbulance(ambulanceDto({ capability: 'cct' })).capability).toBe('cct');
  });
  it('operators never send it: the server refuses them a capability change', () => {
    expect(ambulanceBody({ ...emptyAmbulanceForm, capability: 'bls' }, true)).toEqual({ status: 'available' });
  });
  it('offers the four capabilities in words with what each is', () => {
    expect(CAPABILITY_CHOICES.map((c) => c.label)).toEqual(['ALS', 'BLS', 'CCT', 'Car — cannot convey']);
    expect(CAPABILITY_CHOICES.find((c) => c.value === 'responder')?.description).toBe('Rapid response car: treats, cannot convey');
  });
});
