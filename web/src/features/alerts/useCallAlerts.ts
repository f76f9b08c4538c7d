import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CaseDto } from '../../api/contract';
import { queries } from '../../api/queries';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { useServerNow } from '../shared/useNow';
import { type CallAlert, ambulanceFreedBy, initialWatch, watchStep } from './alertRules';
import { playAlertSound } from './alertSound';
import { notifyDesktop } from './desktopNotify';
import { flashTitle, stopTitleFlash } from './titleFlash';
import { isMuted } from './muteStore';

/** At most this many notices on screen: the newest; older ones are on the board anyway. */
const MAX_NOTICES = 4;
/** How long an ambulance freed by this tab's own write counts as "my action". */
const OWN_WRITE_MS = 15_000;

/**
 * Watches the live lists (the socket patches them) and the clock, and alerts: the notice, and
 * unless muted or caused by the user's own action, the sound, the flashing title and the desktop
 * notification. Answers the notices on screen and how to dismiss one.
 */
export function useCallAlerts(userId: number) {
  const qc = useQueryClient();
  const refetchInterval = usePollingFallback(30_000);
  const cases = useQuery({ ...queries.cases(), refetchInterval });
  const ambulances = useQuery({ ...queries.ambulances(), refetchInterval });
  const config = useQuery(queries.config());
  const now = useServerNow(1000);
  const watch = useRef(initialWatch());
  const ownFreed = useRef(new Map<number, number>());
  const [notices, setNotices] = useState<CallAlert[]>([]);

  // The user's own writes, seen when they start (the socket's echo can beat the HTTP answer).
  useEffect(() => qc.getMutationCache().subscribe((event) => {
    const m = event.mutation;
    if (!m || m.state.status !== 'pending') return;
    const id = ambulanceFreedBy(m.state.variables, qc.getQueryData<CaseDto[]>(queries.cases().queryKey));
    if (id != null) ownFreed.current.set(id, Date.now());
  }), [qc]);

  useEffect(() => {
    const cutoff = Date.now() - OWN_WRITE_MS;
    for (const [id, at] of ownFreed.current) if (at < cutoff) ownFreed.current.delete(id);
    const step = watchStep(watch.current, {
      cases: cases.data, ambulances: ambulances.data, meId: userId, nowMs: now, config: config.data,
      ownFreed: new Set(ownFreed.current.keys()),
    });
    watch.current = step.state;
    if (!step.alerts.length) return;
    setNotices((held) => [...[...step.alerts].reverse(), ...held].slice(0, MAX_NOTICES));
    const loud = step.alerts.filter((a) => !a.quiet);
    if (!loud.length) return;
    const first = loud.reduce((a, b) => (b.priority < a.priority ? b : a));
    // Read at the moment of the alert: a mute pressed a second ago counts.
    if (!isMuted(userId)) {
      playAlertSound(first.priority);
      for (const a of loud) notifyDesktop(a);
    }
    flashTitle(loud.length > 1 ? `${loud.length} alerts — ${first.title}` : first.title);
  }, [cases.data, ambulances.data, config.data, now, userId]);

  useEffect(() => stopTitleFlash, []);

  const dismiss = useCallback((key: string) => setNotices((held) => held.filter((n) => n.key !== key)), []);
  return { notices, dismiss, cases: cases.data, ambulances: ambulances.data };
}
