import Chip from '@mui/material/Chip';
import { caseStatusTone } from '../../domain/caseRules';
import { ambulanceStatusText } from '../../domain/fleetRules';

/** A case's status: active green, closed red, pending and resolved their tone, any other grey. */
export function CaseStatusBadge({ status }: { status: string | null | undefined }) {
  const tone = caseStatusTone(status);
  return <Chip size="small" label={status || 'unknown'} color={tone} variant={tone === 'default' ? 'outlined' : 'filled'} sx={{ textTransform: 'capitalize', fontWeight: 600 }} />;
}

const AMBULANCE_TONE = { available: 'success', busy: 'error', maintenance: 'warning' } as const;

/** An ambulance's status: known ones coloured, anything else as uppercase text (or UNKNOWN) in grey. */
export function AmbulanceStatusBadge({ status }: { status: string | null | undefined }) {
  const tone = AMBULANCE_TONE[status as keyof typeof AMBULANCE_TONE];
  return tone
    ? <Chip size="small" label={ambulanceStatusText(status)} color={tone} sx={{ textTransform: 'capitalize', fontWeight: 600 }} />
    : <Chip size="small" label={ambulanceStatusText(status)} variant="outlined" sx={{ fontWeight: 600 }} />;
}
