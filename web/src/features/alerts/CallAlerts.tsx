import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import type { AmbulanceDto, BackupAlert, CaseDto } from '../../api/contract';
import { mutations } from '../../api/mutations';
import { queries } from '../../api/queries';
import { useApiMutation } from '../../api/useApiMutation';
import { priorityTag } from '../../domain/callLife';
import { patientNameOf } from '../../domain/caseRules';
import { useToast } from '../../layout/toast';
import { type CallAlert, MAX_SHOWN, assignLabel, callToAssign, freeUnitRankText, moreText } from './alertRules';
import { AddUnitDialog } from '../cases/AddUnitDialog';
import { backupChoice, backupText, withBackups } from './backupRules';
import { addedText } from '../cases/callUnits';
import { CloseIcon } from './icons';
import { useCallAlerts } from './useCallAlerts';

/** A notice's buttons, then Close: MUI's Alert drops its own close button when given an action, so the same one is put back beside them. */
function NoticeActions({ children, onClose }: { children: ReactNode; onClose: () => void }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      {children}
      <IconButton color="inherit" size="small" aria-label="Close" title="Close" onClick={onClose}>
        <CloseIcon fontSize="small" />
      </IconButton>
    </Stack>
  );
}

/** The freed unit's distance and ETA to the call it would take, by the dispatch ranking; null while unknown or without a location. */
function useFreeUnitRank(ambulanceId: number, target: Pick<CaseDto, 'latitude' | 'longitude'> | undefined): string | null {
  const lat = target?.latitude;
  const lon = target?.longitude;
  const located = lat != null && lon != null;
  const ranking = useQuery({ ...queries.dispatchSuggestions(lat ?? 0, lon ?? 0), enabled: located });
  return located && ranking.data ? freeUnitRankText(ambulanceId, ranking.data.suggestions) : null;
}

const severity = (a: CallAlert) => (a.reason === 'unit-free' ? 'info' : a.priority === 1 ? 'error' : 'warning');

/**
 * "TS09 EA 1003 is free — 2 calls waiting, oldest P1 6 min" with its one action: the ambulance to
 * the most urgent, oldest waiting call, chosen again at the press from the live list (someone may
 * have assigned that call meanwhile). Its words are those of the moment it alerted (a live region
 * must not re-announce a ticking wait); once the unit is taken or no call waits, the notice is gone.
 */
function FreeUnitNotice({ alert, ambulance, cases, onDone }: {
  alert: CallAlert; ambulance: AmbulanceDto; cases: CaseDto[]; onDone: () => void;
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const assign = useApiMutation(mutations.dispatchWaiting, {
    onSuccess: ({ case: c }) => {
      toast(`${ambulance.license_plate} assigned to the ${priorityTag(c.priority)} call of ${c.patient_name}`, 'success');
      onDone();
    },
  });
  const target = callToAssign(cases);
  const rank = useFreeUnitRank(ambulance.id, target);
  if (!target) return null;

  const press = () => {
    const live = callToAssign(qc.getQueryData<CaseDto[]>(queries.cases().queryKey) ?? cases);
    if (live) assign.mutate({ caseId: live.id, body: { ambulance_id: ambulance.id } });
  };
  return (
    <Alert
      severity={severity(alert)}
      action={(
        <NoticeActions onClose={onDone}>
          <Button color="inherit" variant="outlined" size="small" onClick={press} disabled={assign.isPending} sx={{ whiteSpace: 'nowrap' }}>
            {assignLabel(ambulance.license_plate, target.priority)}
          </Button>
        </NoticeActions>
      )}
      data-testid="unit-free-alert"
    >
      {alert.text}
      {rank && <div data-testid="unit-free-eta">{rank}</div>}
      {assign.isError && (
        <div>{assign.error instanceof ApiError && assign.error.serverError ? assign.error.serverError : 'Could not assign the ambulance'}</div>
      )}
    </Alert>
  );
}

/**
 * A crew asks for backup: the call, the crew's plate and note, and one action that sends help at
 * once, the unit the server ranks first for that call (one meeting its need, else the quickest);
 * Add unit opens the call's list for more, or another.
 */
function BackupNotice({ alert, name, onAdd, onDone }: { alert: BackupAlert; name: string | null; onAdd: (opener: HTMLElement) => void; onDone: () => void }) {
  const call = `the ${priorityTag(alert.priority)} call${name ? ` of ${name}` : ''}`;
  const ranked = useQuery(queries.caseSuggestions(alert.case_id)).data?.suggestions ?? [];
  const first = backupChoice(ranked);
  const add = useApiMutation(mutations.addUnit);
  const toast = useToast();
  const send = () => {
    if (!first || add.isPending) return;
    add.mutate({ caseId: alert.case_id, ambulanceId: first.ambulance_id }, {
      onSuccess: (r) => toast(addedText([first.license_plate], { priority: r.case.priority, name: patientNameOf(r.case) }), 'success'),
    });
  };
  return (
    <Alert
      severity="error"
      variant="filled"
      action={(
        <NoticeActions onClose={onDone}>
          {first && (
            <Button color="inherit" variant="outlined" size="small" onClick={send} disabled={add.isPending} aria-label={`Send ${first.license_plate} to ${call}`} sx={{ whiteSpace: 'nowrap' }}>
              Send {first.license_plate}
            </Button>
          )}
          <Button
            color="inherit"
            variant="outlined"
            size="small"
            onClick={(e) => onAdd(e.currentTarget)}
            aria-label={`Add unit to ${call}`}
            sx={{ whiteSpace: 'nowrap' }}
          >
            Add unit
          </Button>
        </NoticeActions>
      )}
      data-testid="backup-alert"
      data-case-id={alert.case_id}
      data-priority={alert.priority}
    >
      <AlertTitle sx={{ mb: 0 }}>Backup requested</AlertTitle>
      {backupText(alert, name)}
      {add.isError && <div>{add.error instanceof ApiError && add.error.serverError ? add.error.serverError : 'Could not send the unit'}</div>}
    </Alert>
  );
}

/** Focuses a call's card when the board shows it (the opener of a dialog may be gone with its notice). */
function focusCall(caseId: string) {
  const card = [...document.querySelectorAll<HTMLElement>('[data-testid="case-card"]')].find((c) => c.dataset.caseId === caseId);
  card?.focus();
}

/**
 * The alerts' notices, at the top of the screen below the header (in the flow, so they never
 * cover a control; sticky, so a scrolled board still shows them), most urgent first. Several
 * waiting calls are one notice; a notice goes once what it asked for is done (the call
 * dispatched, the unit taken, a unit added for a crew that asked for backup). Past MAX_SHOWN, a
 * button says how many more and of which priorities, and shows them in a bounded, scrolling list:
 * nothing urgent is dropped unseen. Each notice is a role="alert" with its own close button.
 */
export function CallAlerts({ userId }: { userId: number }) {
  const { notices, dismiss, backups, dismissBackup, cases, ambulances } = useCallAlerts(userId);
  const [expanded, setExpanded] = useState(false);
  // The call whose Add unit dialog is open (kept while it fades out); the live row when the board has it.
  const [adding, setAdding] = useState<{ item: CaseDto; open: boolean } | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const visible = notices.filter((n) => {
    if (n.kind !== 'unit-free') return true;
    const ambulance = ambulances?.find((a) => a.id === n.alert?.ambulanceId);
    return ambulance?.unit_status === 'available' && cases != null;
  });
  const entries = withBackups(backups, visible);
  const more = entries.slice(MAX_SHOWN);
  const shown = expanded ? entries : entries.slice(0, MAX_SHOWN);
  const caseOf = (id: string) => cases?.find((c) => c.id === id);
  const nameOf = (id: string) => {
    const c = caseOf(id);
    return c ? patientNameOf(c) : null;
  };
  const addFor = (caseId: string, from: HTMLElement) => {
    const item = caseOf(caseId);
    if (!item) return;
    opener.current = from;
    setAdding({ item, open: true });
  };
  const addingItem = adding ? (caseOf(adding.item.id) ?? adding.item) : null;
  return (
    <>
      {entries.length > 0 && (
        <Stack
          spacing={1}
          aria-label="Alerts"
          component="section"
          data-testid="call-alerts"
          sx={(t) => ({
            position: 'sticky', top: { xs: 64, sm: 72 }, zIndex: t.zIndex.appBar - 1, mb: 2,
            // Bounded: expanded, the list scrolls within half the window rather than pushing the board away.
            maxHeight: '50vh', overflowY: 'auto',
          })}
        >
          {shown.map((e) => {
            if (e.kind === 'backup') {
              return (
                <BackupNotice
                  key={e.key}
                  alert={e.backup}
                  name={nameOf(e.backup.case_id)}
                  onAdd={(from) => addFor(e.backup.case_id, from)}
                  onDone={() => dismissBackup([e.key])}
                />
              );
            }
            const n = e.notice;
            if (n.kind === 'unit-free') {
              const ambulance = ambulances!.find((a) => a.id === n.alert!.ambulanceId)!;
              return <FreeUnitNotice key={n.key} alert={n.alert!} ambulance={ambulance} cases={cases!} onDone={() => dismiss(n.keys)} />;
            }
            return (
              <Alert
                key={n.key}
                severity={n.priority === 1 ? 'error' : 'warning'}
                onClose={() => dismiss(n.keys)}
                data-testid="call-alert"
                data-kind={n.kind}
                data-priority={n.priority}
              >
                {n.text}
              </Alert>
            );
          })}
          {more.length > 0 && (
            <Button
              size="small"
              color="inherit"
              variant="outlined"
              onClick={() => setExpanded((x) => !x)}
              aria-expanded={expanded}
              data-testid="call-alerts-more"
              sx={{ alignSelf: 'flex-start', bgcolor: 'background.paper' }}
            >
              {expanded ? 'Show fewer alerts' : moreText(more.map((x) => x.priority))}
            </Button>
          )}
        </Stack>
      )}
      {adding && addingItem && (
        <AddUnitDialog
          item={addingItem}
          open={adding.open}
          onClose={() => setAdding((a) => a && { ...a, open: false })}
          onExited={() => {
            setAdding(null);
            // Answered, the notice (and its button) is gone: the focus goes to the call's card.
            if (!opener.current?.isConnected) focusCall(addingItem.id);
          }}
        />
      )}
    </>
  );
}
