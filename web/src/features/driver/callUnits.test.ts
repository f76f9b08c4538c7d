import { describe, expect, it } from 'vitest';
import { BACKUP_IDLE, type BackupState, backupStep, otherUnits } from './callUnits';

describe('the other units on the crew\'s call', () => {
  it('each with its plate, capability in words and step in the page\'s words, in the server\'s order', () => {
    expect(otherUnits([
      { license_plate: 'CAR 1', capability: 'responder', can_transport: false, status: 'on_scene' },
      { license_plate: 'AMB 2', capability: 'bls', can_transport: true, status: 'en_route' },
      { license_plate: 'AMB 3', capability: 'als', can_transport: true, status: 'cancelled' },
    ])).toEqual([
      { plate: 'CAR 1', capability: 'Car — cannot convey', car: true, step: 'On scene', status: 'on_scene', onCall: true },
      { plate: 'AMB 2', capability: 'BLS', car: false, step: 'En route', status: 'en_route', onCall: true },
      { plate: 'AMB 3', capability: 'ALS', car: false, step: 'Cancelled', status: 'cancelled', onCall: false },
    ]);
  });
  it('a unit whose ambulance was deleted still shows, without a plate', () => {
    expect(otherUnits([{ license_plate: null, capability: 'als', can_transport: true, status: 'cleared' }])[0]).toMatchObject({ plate: 'Unit with no plate', onCall: false });
  });
  it('none when the link lists none (a viewer\'s answer, an older server)', () => {
    expect(otherUnits(undefined)).toEqual([]);
    expect(otherUnits([])).toEqual([]);
  });
});

describe('the backup control\'s steps', () => {
  const alert = { at: '2026-11-28T10:00:00.000Z' };
  it('takes two taps: open, then send; cancel goes back', () => {
    const open = backupStep(BACKUP_IDLE, { type: 'open' });
    expect(open.phase).toBe('confirming');
    expect(backupStep(open, { type: 'cancel' })).toEqual(BACKUP_IDLE);
    expect(backupStep(BACKUP_IDLE, { type: 'send' })).toBe(BACKUP_IDLE);
    expect(backupStep(open, { type: 'send' }).phase).toBe('sending');
  });
  it('a request on its way cannot be doubled or cancelled', () => {
    const sending: BackupState = { phase: 'sending', outcome: null };
    expect(backupStep(sending, { type: 'open' })).toBe(sending);
    expect(backupStep(sending, { type: 'send' })).toBe(sending);
    expect(backupStep(sending, { type: 'cancel' })).toBe(sending);
  });
  it('shows when it was taken, or why not, until the next answer', () => {
    const sending: BackupState = { phase: 'sending', outcome: null };
    const sent = backupStep(sending, { type: 'answered', ack: { ok: true, alert } });
    expect(sent).toEqual({ phase: 'idle', outcome: { ok: true, at: alert.at } });
    const again = backupStep(backupStep(sent, { type: 'open' }), { type: 'send' });
    expect(again.outcome).toEqual(sent.outcome);
    expect(backupStep(again, { type: 'answered', ack: { ok: false, error: 'No connection' } }))
      .toEqual({ phase: 'idle', outcome: { ok: false, error: 'No connection' } });
  });
});
