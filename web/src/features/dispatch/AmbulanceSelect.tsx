import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import ListItemText from '@mui/material/ListItemText';
import { useMemo, type Ref } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { AmbulanceDto, LatLon } from '../../api/contract';
import { availableByDistance, plateWithDistance } from '../../domain/nearest';
import { suggestionLabel, type RankedChoice } from '../location/suggestions';
import { choiceDetail } from './dispatchPlan';
import { typeAheadSpaceProps } from './typeAheadSpace';
import { RetryButton } from '../shared/LoadStateBanner';

/** One option as the select lists it: the plate (with its estimate), then its capability in words and where it stands. */
interface Choice { id: string; label: string; place: string }

/** The list could not be loaded: which ambulances are free is unknown (never "none"). */
export interface FleetFailure {
  /** SPEC's text, as the toast says it. */
  text: string;
  retry: () => void;
  retrying: boolean;
}

/**
 * Assign Ambulance: only available ones; says so when there are none, and only when the list
 * has loaded: while it loads the select waits, and a failed load shows the error with Retry in
 * its place (never "No ambulances available" for a list nobody has seen). Once the call's location
 * is known and the server has ranked them (`ranked`), by estimated arrival with distance and
 * ETA; else, with a known location (`near`), nearest first; else as the server lists them.
 */
export function AmbulanceSelect({ value, onChange, available, loading, failure = null, retryRef, disabled, near = null, ranked = null, pickedByHand = false, ranking = false, error, inputRef }: {
  value: string; onChange: (id: string) => void; available: AmbulanceDto[]; loading: boolean; disabled: boolean; near?: LatLon | null;
  /** Set while the list failed to load. */
  failure?: FleetFailure | null;
  /** Receives the Retry button of a failed load (focused when a submit needs an ambulance). */
  retryRef?: Ref<HTMLButtonElement>;
  /** The server's ranking for the call's location, when there is one. */
  ranked?: RankedChoice[] | null;
  /** The value is the operator's own pick (not the suggestion). */
  pickedByHand?: boolean;
  /** The ranking for a new location is on its way. */
  ranking?: boolean;
  /** Why the choice is refused (after a submit), shown in place of the count. */
  error?: string;
  /** Receives the select's handle (its focus() focuses the select). */
  inputRef?: Ref<{ focus: () => void }>;
}) {
  const listProps = useMemo(() => typeAheadSpaceProps(), []);
  if (failure) return <FleetUnknown failure={failure} retryRef={retryRef} />;
  const none = !loading && available.length === 0;
  const choices: Choice[] = ranked
    ? ranked.map(({ ambulance: a, suggestion }) => ({ id: String(a.id), label: suggestion ? suggestionLabel(suggestion) : a.license_plate, place: choiceDetail(a) }))
    : availableByDistance(available, near).map(({ ambulance: a, meters }) => ({ id: String(a.id), label: plateWithDistance(a.license_plate, meters), place: choiceDetail(a) }));
  const labelOf = (id: string) => choices.find((c) => c.id === id)?.label ?? '';
  const count = `${available.length} available`;
  const helper = none ? 'No ambulances available'
    : loading ? 'Loading ambulances...'
      : error ?? (ranking ? `${count}; finding the quickest to arrive…`
        : ranked ? (value && !pickedByHand ? `Suggested: the quickest of ${count}` : `${count}, quickest first`)
          : `${count}${near ? ', nearest first' : ''}`);
  return (
    <TextField
      select
      required
      fullWidth
      label="Assign Ambulance"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled || none || loading}
      error={none || Boolean(error)}
      helperText={helper}
      inputRef={inputRef}
      slotProps={{
        select: { renderValue: (v) => labelOf(String(v)), MenuProps: { slotProps: { list: listProps } } },
        // "Loading ambulances..." is read, not greyed out with the waiting select (the disabled grey is 2.7:1).
        formHelperText: { sx: { '&.Mui-disabled:not(.Mui-error)': { color: 'text.secondary' } } },
      }}
    >
      {choices.map((c) => (
        <MenuItem key={c.id} value={c.id}>
          <ListItemText primary={c.label} secondary={c.place} />
        </MenuItem>
      ))}
    </TextField>
  );
}

/** In the select's place when the list failed: SPEC's text, why it matters, and Retry. */
function FleetUnknown({ failure, retryRef }: { failure: FleetFailure; retryRef?: Ref<HTMLButtonElement> }) {
  return (
    <Alert
      severity="error"
      data-testid="ambulance-load-failure"
      action={<RetryButton state={failure} color="error" ref={retryRef} />}
      sx={{ alignItems: 'center' }}
    >
      <AlertTitle sx={{ mb: 0 }}>{failure.text}</AlertTitle>
      Assign Ambulance: which ambulances are free is unknown until the list loads.
    </Alert>
  );
}
