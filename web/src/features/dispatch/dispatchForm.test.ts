import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { EMPTY_FORM, casePayload, dispatchErrorText, dispatchErrors, firstInvalid, isComplete, shareLinkFor } from './dispatchForm';

const ok = { patientName: 'Ravi', email: 'ravi@example.com', emergencyType: 'Stroke', description: '', ambulanceId: '3' };

describe('dispatch form', () => {
  it('needs every required field, a valid e-mail, and a description only for Other', () => {
    expect(isComplete(ok)).toBe(true);
    expect(isComplete(EMPTY_FORM)).toBe(false);
    expect(isComplete({ ...ok, patientName: '   ' })).toBe(false);
    expect(isComplete({ ...ok, email: 'not-an-email' })).toBe(false);
    expect(isComplete({ ...ok, ambulanceId: '' })).toBe(false);
    expect(isComplete({ ...ok, emergencyType: 'Other' })).toBe(false);
    expect(isComplete({ ...ok, emergencyType: 'Other', description: 'Fell from a ladder' })).toBe(true);
  });

  it('words each problem at its field, a malformed e-mail as such, and finds the first in screen order', () => {
    expect(dispatchErrors(ok)).toEqual({});
    const empty = dispatchErrors(EMPTY_FORM);
    expect(Object.keys(empty)).toEqual(['patientName', 'email', 'emergencyType', 'ambulanceId']);
    expect(firstInvalid(empty)).toBe('patientName');
    expect(dispatchErrors({ ...ok, email: 'ravi.example.com' })).toEqual({ email: 'This is not a valid e-mail address (e.g. name@example.com)' });
    expect(firstInvalid(dispatchErrors({ ...ok, email: 'x', ambulanceId: '' }))).toBe('email');
    expect(dispatchErrors({ ...ok, emergencyType: 'Other' })).toEqual({ description: 'Describe the emergency' });
  });

  it('sends the chosen type as description unless Other, and the ambulance id as license_plate', () => {
    expect(casePayload(ok, 7)).toEqual({ operator_id: 7, to: 'ravi@example.com', status: 'active', patientName: 'Ravi', description: 'Stroke', license_plate: 3, caseType: 'Stroke' });
    expect(casePayload({ ...ok, emergencyType: 'Other', description: ' Fell ' }, undefined)).toMatchObject({ description: 'Fell', caseType: 'Other' });
    expect(casePayload(ok, undefined)).not.toHaveProperty('operator_id');
  });

  it('words failures as SPEC §8 does', () => {
    expect(dispatchErrorText(new ApiError(409, 'Ambulance TS09 EA 1001 is not available; choose another ambulance'))).toMatch(/^Ambulance TS09/);
    expect(dispatchErrorText(new ApiError(400, undefined))).toBe('Failed to create case or send email');
    expect(dispatchErrorText(new ApiError(500, undefined))).toBe('Server error (500). Please check your input or try again later.');
    expect(dispatchErrorText(new TypeError('Failed to fetch'))).toBe('Network or server error. Please try again later.');
  });

  it('builds the share-location link from the case id', () => {
    expect(shareLinkFor('abc', 'http://public.example/location/abc?t=Tok_en-1', 'https://x.test')).toBe('https://x.test/location/abc?t=Tok_en-1');
  });
});
