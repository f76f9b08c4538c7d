import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { BACKUP_OFFLINE, type BackupAck, type BackupSocket, backupInput, sendBackup } from './backupSender';

const alert = { case_id: 'c', priority: 1 as const, ambulance_id: 3, license_plate: 'P3', note: null, at: '2026-11-28T10:00:00.000Z' };
const ok: BackupAck = { ok: true, alert };

function socketAnswering(answer: () => Promise<BackupAck>, connected = true) {
  const emitWithAck = vi.fn(answer);
  const socket: BackupSocket = { connected, timeout: () => ({ emitWithAck }) };
  return { socket, emitWithAck };
}

describe('a request for backup', () => {
  it('sends the note trimmed to 200 characters, and no note when it is blank', () => {
    expect(backupInput('  second patient  ')).toEqual({ note: 'second patient' });
    expect(backupInput('   ')).toEqual({});
    expect(backupInput(undefined)).toEqual({});
    expect(backupInput('x'.repeat(250)).note).toHaveLength(200);
  });

  it('goes over the socket when it is connected, and not over REST as well', async () => {
    const { socket, emitWithAck } = socketAnswering(async () => ok);
    const viaRest = vi.fn(async () => ok);
    await expect(sendBackup({ socket: () => socket, viaRest }, 'lift')).resolves.toEqual(ok);
    expect(emitWithAck).toHaveBeenCalledWith('unit.backup', { note: 'lift' });
    expect(viaRest).not.toHaveBeenCalled();
  });

  it('a refusal over the socket is the answer, in the server\'s words', async () => {
    const { socket } = socketAnswering(async () => ({ ok: false, error: 'Too many requests' }));
    const viaRest = vi.fn(async () => ok);
    await expect(sendBackup({ socket: () => socket, viaRest })).resolves.toEqual({ ok: false, error: 'Too many requests' });
    expect(viaRest).not.toHaveBeenCalled();
  });

  it('goes over REST when the socket is down or its ack does not come', async () => {
    const viaRest = vi.fn(async () => ok);
    await expect(sendBackup({ socket: () => null, viaRest })).resolves.toEqual(ok);
    const down = socketAnswering(async () => ok, false);
    await expect(sendBackup({ socket: () => down.socket, viaRest })).resolves.toEqual(ok);
    expect(down.emitWithAck).not.toHaveBeenCalled();
    const silent = socketAnswering(() => Promise.reject(new Error('operation has timed out')));
    await expect(sendBackup({ socket: () => silent.socket, viaRest }, 'x')).resolves.toEqual(ok);
    expect(viaRest).toHaveBeenLastCalledWith({ note: 'x' });
  });

  it('says why REST refused it, or that there is no connection', async () => {
    const refused = vi.fn(() => Promise.reject(new ApiError(409, 'Ambulance P3 is on no call')));
    await expect(sendBackup({ socket: () => null, viaRest: refused })).resolves.toEqual({ ok: false, error: 'Ambulance P3 is on no call' });
    const bare = vi.fn(() => Promise.reject(new ApiError(500, undefined)));
    await expect(sendBackup({ socket: () => null, viaRest: bare })).resolves.toEqual({ ok: false, error: 'Refused (500)' });
    const offline = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(sendBackup({ socket: () => null, viaRest: offline })).resolves.toEqual({ ok: false, error: BACKUP_OFFLINE });
  });
});
