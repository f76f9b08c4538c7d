import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import type { AssignmentDto, CaseDto } from '../../api/contract';
import { AddIcon } from '../../layout/icons';
import { CapabilityChip } from '../shared/CapabilityChip';
import { UnitHospitalLine } from '../shared/UnitHospitalLine';
import { UnitStatusLine } from '../shared/UnitStatusLine';
import { UnitStepControl } from '../shared/UnitStepControl';
import { callUnits, canStandDown, endedUnitText, unitsHeading } from './callUnits';
import { StandDownDialog } from './StandDownDialog';

/** One unit on the call: its plate, step and for how long, its capability in words, its next step and Stand down. */
function OpenUnit({ assignment: a, onStandDown }: { assignment: AssignmentDto; onStandDown: (a: AssignmentDto, opener: HTMLElement) => void }) {
  const plate = a.license_plate ?? `Ambulance #${a.ambulance_id}`;
  return (
    <Box component="li" data-testid="call-unit" data-assignment-id={a.id} data-status={a.status} data-capability={a.capability} sx={{ display: 'grid', gap: 0.75 }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}><UnitStatusLine assignment={a} /></Box>
        <CapabilityChip capability={a.capability} />
      </Box>
      <UnitHospitalLine assignment={a} />
      {a.ambulance_id != null && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Box sx={{ flex: 1, minWidth: 180 }}>
            <UnitStepControl ambulanceId={a.ambulance_id} plate={a.license_plate} status={a.status} />
          </Box>
          {canStandDown(a) && (
            <Button
              variant="outlined"
              color="inherit"
              size="small"
              onClick={(e) => onStandDown(a, e.currentTarget)}
              aria-label={`Stand down ${plate}`}
              data-testid="stand-down"
            >
              Stand down
            </Button>
          )}
        </Box>
      )}
    </Box>
  );
}

/**
 * Every unit of a call (case.assignments, the server's order): those on it, each with its step, its
 * capability in words, its next step and (before the scene) Stand down, which asks for a reason;
 * then, in one short line each, those that left it (cleared, stood down). "Add unit" opens the
 * caller's Add unit dialog (`onAddUnit`); a waiting call has its own Assign and Add unit instead.
 */
export function CallUnits({ item, onAddUnit }: { item: CaseDto; onAddUnit: () => void }) {
  const { open, ended } = callUnits(item);
  const root = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  // The unit asked about stays while the dialog fades out; `asking` opens and closes it.
  const [standing, setStanding] = useState<AssignmentDto | null>(null);
  const [asking, setAsking] = useState(false);
  const name = item.patient_name || item.patientName;
  if (!open.length && !ended.length) return null;

  const startStandDown = (a: AssignmentDto, from: HTMLElement) => {
    opener.current = from;
    setStanding(a);
    setAsking(true);
  };
  // Once stood down its button is gone: the focus stays with this call rather than falling to the page.
  const afterStandDown = () => {
    setStanding(null);
    if (opener.current?.isConnected) return;
    root.current?.closest<HTMLElement>('[data-testid="case-card"]')?.focus();
  };

  return (
    <Box ref={root} data-testid="call-units" sx={{ display: 'grid', gap: 1 }}>
      {open.length > 0 && (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
            <Typography variant="caption" color="text.secondary" data-testid="call-units-heading" sx={{ fontWeight: 600 }}>
              {unitsHeading(open.length)}
            </Typography>
            <Button
              size="small"
              variant="outlined"
              startIcon={<AddIcon />}
              onClick={onAddUnit}
              aria-label={`Add unit to the call of ${name}`}
              data-testid="add-unit"
            >
              Add unit
            </Button>
          </Box>
          <Box component="ul" aria-label={`Units on the call of ${name}`} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
            {open.map((a) => <OpenUnit key={a.id} assignment={a} onStandDown={startStandDown} />)}
          </Box>
        </>
      )}
      {ended.length > 0 && (
        <Box component="ul" aria-label={`Units that left the call of ${name}`} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 0.5 }}>
          {ended.map((a) => (
            <Box
              component="li"
              key={a.id}
              data-testid="call-unit-ended"
              data-assignment-id={a.id}
              data-status={a.status}
            >
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>{endedUnitText(a)}</Typography>
            </Box>
          ))}
        </Box>
      )}
      {standing && (
        <StandDownDialog
          caseId={item.id}
          assignment={standing}
          othersOpen={open.filter((a) => a.id !== standing.id).length}
          open={asking}
          onClose={() => setAsking(false)}
          onExited={afterStandDown}
        />
      )}
    </Box>
  );
}
