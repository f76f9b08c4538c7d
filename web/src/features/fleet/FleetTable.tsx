import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { AmbulanceDto, CaseDto, EtaModelParams } from '../../api/contract';
import { formatDateTime, mapLink, patientNameOf } from '../../domain/caseRules';
import { fleetClassLabel } from '../../domain/fleetRules';
import { MailIcon } from '../../layout/icons';
import { AmbulanceFixLines } from './AmbulanceFixLines';
import { FleetClassBadge } from './FleetClassBadge';
import { UnitStatusLive } from './UnitStatusChip';
import { unitLabel } from './unitStatus';
import { CapabilityChip } from '../shared/CapabilityChip';
import { usePlaceName } from '../shared/usePlaceName';
import { approach, caseStep } from '../../domain/liveText';
import { ApproachLines } from '../cases/LiveCaseInfo';
import { useEtaModel } from '../map/liveHooks';
import type { FleetRow } from './fleetFilters';

export interface Tracker {
  send: (ambulanceId: number) => void;
  isSending: (ambulanceId: number) => boolean;
}

const COLUMNS = ['Tracker Link', 'License Plate', 'Status', 'Location', 'Current Emergency'] as const;

/** The fleet as the spec's table (wide screens). */
export function FleetTable({ rows, tracker }: { rows: FleetRow[]; tracker: Tracker }) {
  return (
    <TableContainer component={Card}>
      <Table aria-label="Ambulance fleet">
        <TableHead>
          <TableRow>
            {COLUMNS.map((c) => (
              <TableCell key={c} sx={{ fontWeight: 700, whiteSpace: 'nowrap', bgcolor: 'action.hover' }}>{c}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.ambulance.id} data-testid={`fleet-row-${r.ambulance.id}`} data-plate={r.ambulance.license_plate} hover sx={{ verticalAlign: 'top' }}>
              <TableCell sx={{ width: 150 }}>
                <TrackerButton row={r} tracker={tracker} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <Typography sx={{ fontWeight: 700 }}>{r.ambulance.license_plate}</Typography>
                <Box sx={{ mt: 0.75 }}><CapabilityChip capability={r.ambulance.capability} /></Box>
              </TableCell>
              <TableCell><StatusCell row={r} /></TableCell>
              <TableCell sx={{ minWidth: 200, maxWidth: 280 }}><LocationCell ambulance={r.ambulance} /></TableCell>
              <TableCell sx={{ minWidth: 240 }}><EmergencyCell ambulance={r.ambulance} activeCase={r.activeCase} /></TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The same rows as cards (phones and narrow windows), with the same labels. */
export function FleetCards({ rows, tracker }: { rows: FleetRow[]; tracker: Tracker }) {
  return (
    <Box component="ul" aria-label="Ambulance fleet" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}>
      {rows.map((r) => (
        <Card component="li" key={r.ambulance.id} data-testid={`fleet-row-${r.ambulance.id}`} data-plate={r.ambulance.license_plate} sx={{ p: 2 }}>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1, mb: 1.5 }}>
            <Box sx={{ display: 'grid', gap: 0.75, justifyItems: 'start' }}>
              <Typography sx={{ fontWeight: 800 }}>{r.ambulance.license_plate}</Typography>
              <CapabilityChip capability={r.ambulance.capability} />
            </Box>
            <StatusCell row={r} />
          </Box>
          <Field label="Location"><LocationCell ambulance={r.ambulance} /></Field>
          <Field label="Current Emergency"><EmergencyCell ambulance={r.ambulance} activeCase={r.activeCase} /></Field>
          <Divider sx={{ my: 1.5 }} />
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
            <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 700, textTransform: 'uppercase' }}>Tracker Link</Typography>
            <TrackerButton row={r} tracker={tracker} />
          </Box>
        </Card>
      ))}
    </Box>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ mb: 1.25 }}>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ fontWeight: 700, textTransform: 'uppercase', mb: 0.25 }}>{label}</Typography>
      {children}
    </Box>
  );
}

function TrackerButton({ row, tracker }: { row: FleetRow; tracker: Tracker }) {
  const sending = tracker.isSending(row.ambulance.id);
  const button = (
    <Button
      variant="contained"
      size="small"
      disabled={!row.activeCase || sending}
      onClick={() => tracker.send(row.ambulance.id)}
      startIcon={sending ? <CircularProgress size={14} color="inherit" /> : <MailIcon />}
      sx={{ whiteSpace: 'nowrap' }}
    >
      Send Tracker
    </Button>
  );
  // A disabled button has no pointer events: the tooltip needs a wrapper.
  return row.activeCase ? button : (
    <Tooltip title="No active case assigned to this ambulance">
      <span>{button}</span>
    </Tooltip>
  );
}

/**
 * The spec's class (On Emergency, Available, Busy) and, under it, where the unit is in its call's
 * life; a unit status in the class's own words (a free unit's "Available") is not said twice.
 */
function StatusCell({ row }: { row: FleetRow }) {
  const same = unitLabel(row.ambulance).toLowerCase() === fleetClassLabel(row.fleetClass, row.ambulance.status).toLowerCase();
  return (
    <Box sx={{ display: 'grid', gap: 0.75, justifyItems: 'start' }}>
      <FleetClassBadge fleetClass={row.fleetClass} status={row.ambulance.status} />
      {!same && <UnitStatusLive ambulance={row.ambulance} />}
    </Box>
  );
}

function LocationCell({ ambulance }: { ambulance: AmbulanceDto }) {
  const loc = ambulance.location;
  const place = usePlaceName(loc?.latitude, loc?.longitude, loc?.placeName);
  const link = mapLink(loc?.latitude, loc?.longitude);
  if (!loc) return <Typography variant="body2" color="text.secondary">Location not set</Typography>;
  return (
    <Box>
      <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{place}</Typography>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {loc.latitude.toFixed(4)}, {loc.longitude.toFixed(4)}
      </Typography>
      <AmbulanceFixLines ambulance={ambulance} />
      {link && (
        <Link href={link} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ fontWeight: 600 }}>
          View on Map
        </Link>
      )}
    </Box>
  );
}

function EmergencyCell({ ambulance, activeCase }: { ambulance: AmbulanceDto; activeCase: CaseDto | undefined }) {
  const model = useEtaModel();
  if (!activeCase) return <Typography variant="body2" color="text.secondary">No active emergency</Typography>;
  const lines: [string, string][] = [
    ['Patient', patientNameOf(activeCase)],
    ['Case ID', activeCase.id.slice(0, 8)],
    ['Started', formatDateTime(activeCase.created_at)],
    ['Contact', activeCase.email || 'Not provided'],
    ['Driver', ambulance.email || 'Not provided'],
  ];
  return (
    <Box>
      <Typography variant="body2" sx={{ fontWeight: 700, mb: 0.5, overflowWrap: 'anywhere' }}>
        {activeCase.description || 'No description provided'}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.25, rowGap: 0.25 }}>
        {lines.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>{label}</Typography>
            <Typography component="dd" variant="caption" sx={{ m: 0, overflowWrap: 'anywhere' }} title={label === 'Case ID' ? activeCase.id : undefined}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      <ToPatient ambulance={ambulance} activeCase={activeCase} model={model} />
    </Box>
  );
}

/** The ambulance's distance and ETA to its patient, when both positions are known and it has not arrived yet. */
function ToPatient({ ambulance, activeCase, model }: { ambulance: AmbulanceDto; activeCase: CaseDto; model: EtaModelParams | undefined }) {
  const toPatient = approach(ambulance.location, activeCase, model, caseStep(activeCase, ambulance.id));
  if (!toPatient) return null;
  return (
    <Box data-testid="fleet-approach" sx={{ mt: 1, px: 1.25, py: 0.75, borderRadius: 1, bgcolor: 'action.hover', maxWidth: 320 }}>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ fontWeight: 700 }}>To the patient</Typography>
      <ApproachLines approach={toPatient} dense />
    </Box>
  );
}
