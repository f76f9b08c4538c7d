import { ApiError } from '../../api/client';
import type { ClientToServerEvents } from '../../api/contract';

// The contract's BackupAck lives in a module api/contract.ts does not re-export (it builds zod
// schemas at load); the socket event's own signature carries the same types.
type BackupEmit = ClientToServerEvents['unit.backup'];
export type BackupInput = Parameters<BackupEmit>[0];
export type BackupAck = Parameters<NonNullable<Parameters<BackupEmit>[1]>>[0];

/** The server's longest note (contract backupRequestSchema). */
export const BACKUP_NOTE_MAX = 200;

/** The socket as a backup request needs it: connected or not, and an acked emit with a time-out. */
export interface BackupSocket {
  connected: boolean;
  timeout(ms: number): { emitWithAck(event: 'unit.backup', input: BackupInput): Promise<BackupAck> };
}

export interface BackupSenderDeps {
  socket: () => BackupSocket | null;
  /** POST /api/ambulances/{id}/backup?t=…; rejects with ApiError for an answer, anything else for no answer. */
  viaRest: (input: BackupInput) => Promise<BackupAck>;
  ackMs?: number;
}

const ACK_MS = 8000;
export const BACKUP_OFFLINE = 'No connection. Try again, or call the dispatcher.';

/** The body: the note trimmed to what the server takes, left out when empty. */
export function backupInput(note: string | undefined): BackupInput {
  const text = (note ?? '').trim().slice(0, BACKUP_NOTE_MAX).trim();
  return text ? { note: text } : {};
}

/**
 * One request for backup, sent now and not queued: a request that waits for a connection would
 * reach the dispatcher when it no longer says where things stand, so the crew is told it was not
 * sent and asks again (or by radio). Over the socket when it is up; when its ack does not come,
 * over REST (a second alert is better than none); a refusal is final either way, in the server's words.
 */
export async function sendBackup(deps: BackupSenderDeps, note?: string): Promise<BackupAck> {
  const input = backupInput(note);
  const socket = deps.socket();
  if (socket?.connected) {
    try {
      return await socket.timeout(deps.ackMs ?? ACK_MS).emitWithAck('unit.backup', input);
    } catch {
      // No ack in time (a half-dead socket): REST decides.
    }
  }
  try {
    return await deps.viaRest(input);
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: error.serverError ?? `Refused (${error.status})` };
    return { ok: false, error: BACKUP_OFFLINE };
  }
}
