import type { OutboxMessageDto } from '../../../api/contract';

type Tone = 'success' | 'error' | 'warning' | 'info';

export const STATUS_TONE: Record<OutboxMessageDto['status'], Tone> = {
  queued: 'warning', sending: 'info', sent: 'success', failed: 'error',
};

const KIND_LABELS: Record<string, string> = {
  'share-location': 'Share location',
  'tracking-patient': 'Tracking (patient)',
  'tracking-driver': 'Tracking (driver)',
  'signin-code': 'Sign-in code',
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

/**
 * Whether a link lost its token: the server keeps a sent (or failed) message without its
 * secrets, each `t=` value replaced by `…`. Such a link opens nothing; it only says which link it was.
 */
export function isRedactedLink(link: string): boolean {
  const t = (() => {
    try { return new URL(link).searchParams.get('t'); } catch { return /[?&]t=([^&#]*)/.exec(link)?.[1] ?? null; }
  })();
  return t === '…';
}
