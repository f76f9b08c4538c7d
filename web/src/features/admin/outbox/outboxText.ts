import type { OutboxMessageDto } from '../../../api/contract';

type Tone = 'success' | 'error' | 'warning' | 'info';

export const STATUS_TONE: Record<OutboxMessageDto['status'], Tone> = {
  queued: 'warning', sending: 'info', sent: 'success', failed: 'error',
};

const KIND_LABELS: Record<string, string> = {
  'share-location': 'Share location',
  'tracking-patient': 'Tracking (patient)',
  'tracking-driver': 'Tracking (driver)',
};
export const kindLabel = (kind: string) => KIND_LABELS[kind] ?? kind;

/** What a link in a message is for, from its path. */
export function linkLabel(link: string): string {
  const path = (() => {
    try { return new URL(link).pathname; } catch { return link; }
  })();
  if (path.startsWith('/location/')) return 'Share-location link';
  if (path.startsWith('/track/')) return 'Tracking link';
  if (path.startsWith('/driver/')) return 'Driver link';
  return 'Link';
}

/** Newest first. */
export const newestFirst = (messages: OutboxMessageDto[]) => [...messages].sort((a, b) => b.id - a.id);

export function matchesFilter(m: OutboxMessageDto, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [m.to, m.subject, m.kind, m.case_id ?? '', m.status].some((v) => v.toLowerCase().includes(q));
}
