import type { TrackResponse } from '../api/contract';

/**
 * Where the tracking page's call stands, in one word, so the page says one consistent thing:
 * the ambulance is coming (an estimate), has arrived (none), or the tracking has ended (none, no
 * "on its way", no link error beside it). From the link's answer, kept live by `track.case`, and
 * whether the link has since stopped answering (`gone`: revoked at the end of the call).
 */
export type TrackStage =
  | { kind: 'coming' }
  | { kind: 'arrived'; step: 'on_scene' | 'transporting' | 'at_hospital' }
  | { kind: 'ended'; why: 'done' | 'changed' | 'closed' | 'stopped' };

export function trackStage(data: Pick<TrackResponse, 'case' | 'unit_status'>, gone: boolean): TrackStage {
  const step = data.unit_status;
  if (step === 'cleared') return { kind: 'ended', why: 'done' };
  if (step === 'cancelled') return { kind: 'ended', why: data.case.status === 'active' || data.case.status === 'pending' ? 'changed' : 'closed' };
  if (data.case.status === 'pending') return { kind: 'ended', why: 'changed' };
  if (data.case.status !== 'active') return { kind: 'ended', why: 'closed' };
  if (gone) return { kind: 'ended', why: 'stopped' };
  if (step === 'on_scene' || step === 'transporting' || step === 'at_hospital') return { kind: 'arrived', step };
  return { kind: 'coming' };
}

/** The line under the page's title. */
export function stageHeadline(stage: TrackStage, plate: string): string {
  if (stage.kind === 'coming') return `Ambulance ${plate} is on its way.`;
  if (stage.kind === 'arrived') {
    if (stage.step === 'on_scene') return `Ambulance ${plate} has arrived.`;
    return stage.step === 'transporting' ? `Ambulance ${plate} is taking the patient to hospital.` : `Ambulance ${plate} is at the hospital.`;
  }
  return 'Tracking has ended.';
}

/** What the arrival panel says when there is no estimate to give (arrived or ended). */
export function stageText(stage: Exclude<TrackStage, { kind: 'coming' }>): string {
  if (stage.kind === 'arrived') {
    if (stage.step === 'on_scene') return 'The ambulance has arrived.';
    return stage.step === 'transporting' ? 'The patient is on the way to hospital.' : 'The ambulance is at the hospital.';
  }
  switch (stage.why) {
    case 'done': return 'The ambulance crew has completed this call. Tracking has ended.';
    case 'changed': return 'This ambulance is no longer assigned to this call. The centre sends a new tracking link for the ambulance that takes over.';
    case 'closed': return 'This call has been closed. Tracking has ended.';
    case 'stopped': return 'This tracking link has stopped: the call has ended or its ambulance changed.';
  }
}
