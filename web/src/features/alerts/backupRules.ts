import { type BackupAlert, type CaseDto, type CaseSuggestion, backupAnswered as answered } from '../../api/contract';
import { priorityTag } from '../../domain/callLife';
import { backupKey } from '../../realtime/backupAlerts';
import type { CallAlert } from './alertRules';

/**
 * A crew's request for backup (`backup.requested`), as the alerts and the call's card show it.
 * Pure: the hook feeds it the held requests and the board, and plays what it answers.
 */

type CaseLook = Pick<CaseDto, 'id' | 'status' | 'assignments'> & Partial<Pick<CaseDto, 'backup_request'>>;

/**
 * Whether a request is answered: its call is over (or gone from the board), or a unit was sent to it
 * at or after the request (the contract's backupAnswered). A board not yet loaded answers nothing.
 */
export function backupAnswered(a: BackupAlert, cases: readonly CaseLook[] | undefined): boolean {
  if (!cases) return false;
  const c = cases.find((x) => x.id === a.case_id);
  return !c || answered(a, { status: c.status, assignments: c.assignments ?? [] });
}

/**
 * The requests still asking, oldest first: those heard on this tab's socket and those the calls
 * themselves carry (`backup_request`), so a board opened after a request, or a tab that was offline
 * when it came, shows it too. The same request heard both ways is one.
 */
export function openBackups(held: readonly BackupAlert[] | undefined, cases: readonly CaseLook[] | undefined): BackupAlert[] {
  const onCalls = (cases ?? []).flatMap((c) => (c.backup_request ? [c.backup_request] : []));
  const all = new Map([...(held ?? []), ...onCalls].map((a) => [backupKey(a), a]));
  return [...all.values()].filter((a) => !backupAnswered(a, cases)).sort((a, b) => a.at.localeCompare(b.at));
}

/** The unit a request's one action sends: the first the server ranks for the call that meets its need, else its first (null: none free). */
export const backupChoice = <S extends Pick<CaseSuggestion, 'ambulance_id' | 'license_plate' | 'meets_need'>>(ranked: readonly S[]): S | null =>
  ranked.find((s) => s.meets_need) ?? ranked[0] ?? null;

/** "Backup asked for the P1 call of Ravi Kumar by TS09 EA 1003: second patient" */
export function backupText(a: BackupAlert, patientName: string | null): string {
  const call = `the ${priorityTag(a.priority)} call${patientName ? ` of ${patientName}` : ''}`;
  const note = a.note?.trim();
  return `Backup asked for ${call} by ${a.license_plate}${note ? `: ${note}` : ''}`;
}

/** On the call's own card, which already says the call: "Backup asked by TS09 EA 1003: second patient". */
export function backupCardText(a: BackupAlert): string {
  const note = a.note?.trim();
  return `Backup asked by ${a.license_plate}${note ? `: ${note}` : ''}`;
}

/** The short title (tab title, desktop notification): "Backup for P1 call — TS09 EA 1003". */
export const backupTitle = (a: BackupAlert) => `Backup for ${priorityTag(a.priority)} call — ${a.license_plate}`;

/** The request as the other alerts are told (sound, desktop notification, title flash). */
export function backupCallAlert(a: BackupAlert, patientName: string | null): CallAlert {
  return { key: backupKey(a), reason: 'backup', priority: a.priority, caseId: a.case_id, ambulanceId: a.ambulance_id, title: backupTitle(a), text: backupText(a, patientName) };
}

/**
 * The requests not alerted yet, and the keys alerted from now on. The first look (`seen` null) is
 * the baseline: what was held before this watch began (a remount) has already rung.
 */
export function newBackups(seen: ReadonlySet<string> | null, open: readonly BackupAlert[]): { fresh: BackupAlert[]; seen: Set<string> } {
  const keys = new Set(open.map(backupKey));
  if (seen == null) return { fresh: [], seen: keys };
  return { fresh: open.filter((a) => !seen.has(backupKey(a))), seen: keys };
}

/** Most urgent first (priority), then the oldest request. */
export const backupOrder = (list: readonly BackupAlert[]): BackupAlert[] =>
  [...list].sort((a, b) => a.priority - b.priority || a.at.localeCompare(b.at));

/** One entry of the alerts' stack: a request for backup, or one of the other notices. */
export type AlertEntry<N> =
  | { kind: 'backup'; key: string; priority: BackupAlert['priority']; backup: BackupAlert }
  | { kind: 'notice'; key: string; priority: BackupAlert['priority']; notice: N };

/**
 * The requests for backup among the other notices: by priority, and within one the crews asking
 * first (a crew on scene waits for help), each group in its own order.
 */
export function withBackups<N extends { key: string; priority: BackupAlert['priority'] }>(backups: readonly BackupAlert[], notices: readonly N[]): AlertEntry<N>[] {
  const entries: AlertEntry<N>[] = [
    ...backupOrder(backups).map((b) => ({ kind: 'backup' as const, key: backupKey(b), priority: b.priority, backup: b })),
    ...notices.map((n) => ({ kind: 'notice' as const, key: n.key, priority: n.priority, notice: n })),
  ];
  // Array.prototype.sort is stable: each group keeps its order within a priority.
  return entries.sort((a, b) => a.priority - b.priority || Number(a.kind === 'notice') - Number(b.kind === 'notice'));
}
