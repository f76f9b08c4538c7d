import { describe, expect, it } from 'vitest';
import type { AssignmentStatus, TrackResponse } from '../api/contract';
import { stageHeadline, stageText, trackStage } from './trackStage';

const data = (status: string, unit_status: AssignmentStatus | null): Pick<TrackResponse, 'case' | 'unit_status'> =>
  ({ case: { id: 'c', status, patientName: 'P', description: 'Fall' }, unit_status });

describe('the tracking page says one thing about the call', () => {
  it('is coming (an estimate) while dispatched or en route', () => {
    expect(trackStage(data('active', 'dispatched'), false)).toEqual({ kind: 'coming' });
    expect(trackStage(data('active', 'en_route'), false)).toEqual({ kind: 'coming' });
    expect(stageHeadline({ kind: 'coming' }, 'TS09 EA 1001')).toBe('Ambulance TS09 EA 1001 is on its way.');
  });

  it('has arrived (no estimate) from on scene to at hospital', () => {
    expect(trackStage(data('active', 'on_scene'), false)).toEqual({ kind: 'arrived', step: 'on_scene' });
    expect(trackStage(data('active', 'transporting'), false)).toEqual({ kind: 'arrived', step: 'transporting' });
    expect(stageHeadline({ kind: 'arrived', step: 'on_scene' }, 'X')).toBe('Ambulance X has arrived.');
    expect(stageText({ kind: 'arrived', step: 'at_hospital' })).toBe('The ambulance is at the hospital.');
  });

  it('has ended after Clear, a close, a change of ambulance, or once the link stops answering: never "on its way" then', () => {
    expect(trackStage(data('resolved', 'cleared'), true)).toEqual({ kind: 'ended', why: 'done' });
    expect(trackStage(data('active', 'cleared'), false)).toEqual({ kind: 'ended', why: 'done' });
    expect(trackStage(data('closed', 'cancelled'), false)).toEqual({ kind: 'ended', why: 'closed' });
    expect(trackStage(data('pending', 'cancelled'), false)).toEqual({ kind: 'ended', why: 'changed' });
    expect(trackStage(data('closed', 'on_scene'), false)).toEqual({ kind: 'ended', why: 'closed' });
    expect(trackStage(data('active', 'en_route'), true)).toEqual({ kind: 'ended', why: 'stopped' });
    for (const why of ['done', 'changed', 'closed', 'stopped'] as const) {
      expect(stageHeadline({ kind: 'ended', why }, 'X')).toBe('Tracking has ended.');
      expect(stageText({ kind: 'ended', why })).not.toMatch(/on its way|Arriving|\bmin\b/);
    }
  });
});
