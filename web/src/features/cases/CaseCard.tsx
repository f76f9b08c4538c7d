import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { CaseDto } from '../../api/contract';
import { caseTypeColor, formatDateTime, patientNameOf, typeFromDescription } from '../../domain/caseRules';
import { MailIcon, MapIcon } from '../../layout/icons';
import { CaseStatusBadge } from '../shared/StatusBadges';
import { CallClock } from '../shared/CallClock';
import { PriorityChip } from '../shared/PriorityChip';
import { awaitsUnit } from '../../domain/callLife';
import { AmbulanceIcon, ClockIcon, PlaceIcon } from '../../layout/icons';
import { ApproachLines, PatientFixLine, useCaseLive } from './LiveCaseInfo';
import { CaseLocationNotes } from './CaseLocationNotes';
import { AssignControl } from './AssignControl';
import { AddUnitDialog } from './AddUnitDialog';
import { CallUnits } from './CallUnits';
import { useCallBackups } from '../alerts/useBackupAlerts';
import { backupCardText } from '../alerts/backupRules';
import { focusCard } from './boardKeys';

function Line({ icon, children, label }: { icon: ReactNode; children: ReactNode; label: string }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', color: 'text.secondary', '& > svg': { fontSize: 18, mt: '2px', flexShrink: 0 } }}>
      {icon}
      <Box aria-label={label} sx={{ minWidth: 0, overflowWrap: 'anywhere', typography: 'body2' }}>{children}</Box>
    </Box>
  );
}

/**
 * An open call: type colour bar, priority, status, patient, short id, the response clock against
 * its target, a crew's request for backup, every unit on the call with its step, its next one and
 * Stand down, Add unit, contact, place, time, description, map.
 */
export function CaseCard({ item, place, onMap, onTimes }: { item: CaseDto; place: string; onMap: () => void; onTimes?: () => void }) {
  const name = patientNameOf(item);
  const type = item.caseType || typeFromDescription(item.description);
  const live = useCaseLive(item);
  const waiting = awaitsUnit(item);
  const backups = useCallBackups(item);
  const [adding, setAdding] = useState(false);
  const card = useRef<HTMLElement>(null);
  // After Assign the button is gone (the call now runs, and moves down its priority): the focus
  // stays with this call, on its next step, once the board shows it dispatched.
  const keepFocus = useRef(false);
  useEffect(() => {
    if (!keepFocus.current || waiting) return;
    keepFocus.current = false;
    focusCard(card.current, 'next');
  }, [waiting]);
  return (
    <Card
      component="article"
      ref={card}
      // Focusable by script only (j/k on the board), never a Tab stop of its own.
      tabIndex={-1}
      aria-label={name}
      data-testid="case-card"
      data-case-id={item.id}
      data-priority={item.priority}
      data-status={item.status}
      data-waiting={waiting}
      sx={(t) => ({
        display: 'flex', flexDirection: 'column', overflow: 'hidden', scrollMarginTop: 200, scrollMarginBottom: 24,
        '&:focus-visible': { outline: `3px solid ${t.palette.primary.main}`, outlineOffset: 2 },
      })}
    >
      <Box sx={{ height: 6, bgcolor: caseTypeColor(item.caseType) }} />
      <CardContent sx={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <PriorityChip priority={item.priority} />
          <Typography variant="overline" color="text.secondary" noWrap sx={{ lineHeight: 1.6, flex: 1, minWidth: 0 }}>{type || 'Emergency'}</Typography>
          <CaseStatusBadge status={item.status} />
        </Box>
        <Box>
          <Typography variant="h6" component="h2" sx={{ lineHeight: 1.3, overflowWrap: 'anywhere' }}>{name}</Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }} title={item.id}>
            #{item.id.slice(0, 8)}
          </Typography>
        </Box>
        <CallClock item={item} />
        {backups.map((b) => (
          // The alerts' notice is the live announcement; on the card the request is a plain note beside its call.
          <Alert
            key={`${b.ambulance_id}:${b.at}`}
            role="note"
            severity="error"
            data-testid="card-backup"
            action={<Button color="inherit" size="small" variant="outlined" onClick={() => setAdding(true)} sx={{ whiteSpace: 'nowrap' }}>Add unit</Button>}
          >
            {backupCardText(b)}
          </Alert>
        ))}
        {waiting && (
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="body2" color="text.secondary" data-testid="unit-line">Waiting for an ambulance</Typography>
            <Box sx={{ display: 'flex', gap: 1 }}>
              <AssignControl item={item} onDispatched={() => {
                // The socket's event may have shown the call dispatched before the answer came.
                if (card.current?.dataset.waiting === 'true') keepFocus.current = true;
                else focusCard(card.current, 'next');
              }} />
              {/* Several units at once (the plan's "send both"), where Assign sends one. */}
              <Button size="small" variant="outlined" onClick={() => setAdding(true)} aria-label={`Add unit to the call of ${name}`} data-testid="add-unit">
                Add unit
              </Button>
            </Box>
          </Box>
        )}
        <CallUnits item={item} onAddUnit={() => setAdding(true)} />
        <AddUnitDialog
          item={item}
          open={adding}
          onClose={() => setAdding(false)}
          // Added to a waiting call, its buttons are gone: the focus stays with the call, on its next step.
          onExited={() => { if (!card.current?.contains(document.activeElement)) focusCard(card.current, 'next'); }}
        />
        <Line icon={<MailIcon />} label="Patient email">{item.email}</Line>
        <Line icon={<PlaceIcon />} label="Location">
          <span data-testid="case-location">{place}</span>
          <CaseLocationNotes item={item} />
          {live.fix && <PatientFixLine fix={live.fix} />}
        </Line>
        {live.approach && (
          <Line icon={<AmbulanceIcon />} label="Assigned ambulance">
            <ApproachLines approach={live.approach} plate={live.approach.ambulance.license_plate} />
          </Line>
        )}
        <Line icon={<ClockIcon />} label="Created">{formatDateTime(item.created_at)}</Line>
        <Typography
          variant="body2"
          sx={{ mt: 0.5, display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' }}
        >
          {item.description || 'No description provided'}
        </Typography>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, pt: 0, gap: 1 }}>
        <Button fullWidth variant="outlined" startIcon={<MapIcon />} onClick={onMap}>View on Map</Button>
        {onTimes && (
          <Button variant="outlined" color="inherit" startIcon={<ClockIcon />} onClick={onTimes} aria-label={`Times of the call of ${name}`} sx={{ flex: 'none' }}>
            Times
          </Button>
        )}
      </CardActions>
    </Card>
  );
}
