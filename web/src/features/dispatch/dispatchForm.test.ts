import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { priorityForType } from '../../api/contract';
import { EMERGENCY_TYPES, EMPTY_FORM, casePayload, descriptionLabel, descriptionMax, descriptionOf, dispatchErrorText, dispatchErrors, firstInvalid, isComplete, shareLinkFor } from './dispatchForm';
import { shareLinkTitle } from './intake';

const ok = { patientName: 'Ravi', email: 'ravi@example.com', emergencyType: 'Stroke', description: '', ambulanceId: '3', priority: '' };

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
    expect(casePayload(ok, 7)).toEqual({ operator_id: 7, to: 'ravi@example.com', status: 'active', patientName: 'Ravi', description: 'Stroke', license_plate: 3, caseType: 'Stroke', priority: 1 });
    expect(casePayload({ ...ok, emergencyType: 'Other', description: ' Fell ' }, undefined)).toMatchObject({ description: 'Fell', caseType: 'Other' });
    expect(casePayload(ok, undefined)).not.toHaveProperty('operator_id');
  });

  it('sends the priority the form holds: the hand-picked one over the type\'s', () => {
    expect(casePayload({ ...ok, emergencyType: 'Accident' }, undefined).priority).toBe(2);
    expect(casePayload({ ...ok, emergencyType: 'Accident', priority: '4' }, undefined).priority).toBe(4);
    expect(casePayload({ ...ok, emergencyType: 'Other', description: 'Fell' }, undefined).priority).toBe(3);
  });

  it('sends when the call came in, only when known', () => {
    expect(casePayload(ok, undefined, { callReceivedAt: '2026-03-01T10:00:00.000Z' }).call_received_at).toBe('2026-03-01T10:00:00.000Z');
    expect(casePayload(ok, undefined, { callReceivedAt: null })).not.toHaveProperty('call_received_at');
  });

  it('sends the location understood at intake, only when there is one', () => {
    const intake = { latitude: 17.4126, longitude: 78.4482, address: '17.41260, 78.44820', source: 'coordinates' as const };
    expect(casePayload({ ...ok, intake }, undefined).intake_location).toEqual(intake);
    expect(casePayload({ ...ok, intake: null }, undefined)).not.toHaveProperty('intake_location');
    expect(casePayload({ ...ok, ambulanceId: '', intake }, undefined, { mode: 'queue' }).intake_location).toEqual(intake);
  });

  it('queues a call as pending with no ambulance, and needs no ambulance to do so', () => {
    const queued = casePayload({ ...ok, ambulanceId: '' }, undefined, { mode: 'queue' });
    expect(queued).toMatchObject({ status: 'pending', priority: 1, caseType: 'Stroke' });
    expect(queued).not.toHaveProperty('license_plate');
    expect(dispatchErrors({ ...ok, ambulanceId: '' }, 'queue')).toEqual({});
    expect(dispatchErrors({ ...ok, ambulanceId: '' }, 'dispatch')).toEqual({ ambulanceId: 'Choose an ambulance' });
    expect(dispatchErrors({ ...EMPTY_FORM }, 'queue')).not.toHaveProperty('ambulanceId');
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

  it('offers the P1 types a call-taker meets every shift, SPEC\'s six kept in their places', () => {
    expect(EMERGENCY_TYPES).toEqual(['Medical Emergency', 'Accident', 'Heart Attack', 'Stroke', 'Injury', 'Cardiac arrest', 'Breathing problems', 'Other']);
    expect(priorityForType('Cardiac arrest')).toBe(1);
    expect(priorityForType('Breathing problems')).toBe(1);
    expect(casePayload({ ...ok, emergencyType: 'Cardiac arrest' }, undefined)).toMatchObject({ description: 'Cardiac arrest', caseType: 'Cardiac arrest', priority: 1 });
    expect(casePayload({ ...ok, emergencyType: 'Breathing problems' }, undefined).priority).toBe(1);
  });

  it('takes notes for every type: sent after the type, which still leads the description', () => {
    expect(descriptionLabel('Stroke')).toBe('Notes');
    expect(descriptionLabel('')).toBe('Notes');
    expect(descriptionLabel('Other')).toBe('Description');
    expect(descriptionOf({ emergencyType: 'Cardiac arrest', description: '  CPR in progress ' })).toBe('Cardiac arrest — CPR in progress');
    expect(casePayload({ ...ok, description: 'Slurred speech since 9' }, undefined)).toMatchObject({ description: 'Stroke — Slurred speech since 9', caseType: 'Stroke', priority: 1 });
    // Notes are optional for any type but Other.
    expect(dispatchErrors({ ...ok, description: '' })).toEqual({});
    expect(casePayload({ ...ok, description: '   ' }, undefined).description).toBe('Stroke');
  });

  it('stops the notes where the description sent would outgrow what the server keeps (2000)', () => {
    for (const t of EMERGENCY_TYPES) {
      expect(descriptionOf({ emergencyType: t, description: 'x'.repeat(descriptionMax(t)) }).length).toBeLessThanOrEqual(2000);
    }
    expect(descriptionMax('Other')).toBe(2000);
  });

  it('names whose share link a panel holds', () => {
    expect(shareLinkTitle({ patientName: 'Ravi Kumar', caseId: '1a2b3c4d-0000-4000-8000-000000000000' })).toBe('Share-location link of Ravi Kumar\'s call (case 1a2b3c4d)');
    expect(shareLinkTitle({ patientName: ' ', caseId: 'abcdef123456' })).toBe('Share-location link of Unknown Patient\'s call (case abcdef12)');
  });
});
