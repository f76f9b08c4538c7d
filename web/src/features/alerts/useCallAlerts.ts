import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CaseDto } from '../../api/contract';
import { queries } from '../../api/queries';
import { usePollingFallback } from '../../realtime/LiveProvider';
import { useServerNow } from '../shared/useNow';
import { dropBackupAlerts } from '../../realtime/backupAlerts';
import { patientNameOf } from '../../domain/caseRules';
import { type HeldAlert, ambulanceFreedBy, arrangeNotices, initialWatch, pruneAlerts, watchStep } from './alertRules';
import { backupCallAlert, newBackups, openBackups } from './backupRules';
import { playAlertSound } from './alertSound';
import { notifyDesktop } from './desktopNotify';
import { flashTitle, stopTitleFlash } from './titleFlash';
import { isMuted } from './muteStore';

/** How long an ambulance freed by this tab's own write counts as "my action". */
const OWN_WRITE_MS = 15_000;

/**
 * Watches the live lists (the socket patches them) and the clock, and alerts: the notice, and
 * unless muted or caused by the user's own action, the sound, the flashing title and the desktop
 * notification. An alert is held until it is dismissed or resolved (alertResolved: the call
 * dispatched or ended, the unit taken); the held ones are answered as notices, most urgent first
 * (arrangeNotices), with how to dismiss one. A crew's request for backup (`backup.requested`, held by
 * the live cache) rings once as it comes and is answered by a unit added to its call.
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
  const [held, setHeld] = useState<{ list: HeldAlert[]; at: number }>({ list: [], at: 0 });
  // Pre-alerts no hospital acknowledged in time (`prealert.late`, held by the live cache until acknowledged).
  const prealertLate = useQuery(queries.prealertAlerts()).data;

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
      ownFreed: new Set(ownFreed.current.keys()), prealertLate,
    });
    watch.current = step.state;
    // Held alerts that are over expire; what changed is worded at this moment (never per tick).
    setHeld((h) => {
      const kept = pruneAlerts(h.list, cases.data, ambulances.data, now, new Set((prealertLate ?? []).map((p) => p.prealert_id)));
      if (kept.length === h.list.length && !step.alerts.length) return h;
      return { list: [...kept, ...step.alerts.map((alert) => ({ alert, at: now }))], at: now };
    });
    if (!step.alerts.length) return;
    const loud = step.alerts.filter((a) => !a.quiet);
    if (!loud.length) return;
    const first = loud.reduce((a, b) => (b.priority < a.priority ? b : a));
    // Read at the moment of the alert: a mute pressed a second ago counts.
    if (!isMuted(userId)) {
      playAlertSound(first.priority);
      for (const a of loud) notifyDesktop(a);
    }
    flashTitle(loud.length > 1 ? `${loud.length} alerts — ${first.title}` : first.title);
  }, [cases.data, ambulances.data, config.data, now, userId, prealertLate]);

  // A crew's request for backup: it rings as it comes (never for the user's own action: staff have no such button).
  const heldBackups = useQuery(queries.backupAlerts()).data;
  const backups = useMemo(() => openBackups(heldBackups, cases.data), [heldBackups, cases.data]);
  const seenBackups = useRef<Set<string> | null>(null);
  useEffect(() => {
    const step = newBackups(seenBackups.current, backups);
    seenBackups.current = step.seen;
    if (!step.fresh.length) return;
    const nameOf = (id: string) => {
      const c = cases.data?.find((x) => x.id === id);
      return c ? patientNameOf(c) : null;
    };
    const alerts = step.fresh.map((a) => backupCallAlert(a, nameOf(a.case_id)));
    const first = alerts.reduce((a, b) => (b.priority < a.priority ? b : a));
    if (!isMuted(userId)) {
      playAlertSound(first.priority);
      for (const a of alerts) notifyDesktop(a);
    }
    flashTitle(alerts.length > 1 ? `${alerts.length} alerts — ${first.title}` : first.title);
  }, [backups, cases.data, userId]);
  const dismissBackup = useCallback((keys: readonly string[]) => dropBackupAlerts(qc, keys), [qc]);

  useEffect(() => stopTitleFlash, []);

  const dismiss = useCallback((keys: readonly string[]) => setHeld((h) => ({ list: h.list.filter((x) => !keys.includes(x.alert.key)), at: h.at })), []);
  const board = cases.data;
  const notices = useMemo(() => (board ? arrangeNotices(held.list, board, held.at) : []), [held, board]);
  return { notices, dismiss, backups, dismissBackup, cases: cases.data, ambulances: ambulances.data };
}
