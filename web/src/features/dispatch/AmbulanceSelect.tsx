import ListItemText from '@mui/material/ListItemText';
import { useMemo, type Ref } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { AmbulanceDto, LatLon } from '../../api/contract';
import { availableByDistance, plateWithDistance } from '../../domain/nearest';
import { suggestionLabel, type RankedChoice } from '../location/suggestions';
import { typeAheadSpaceProps } from './typeAheadSpace';

/** One option as the select lists it. */
interface Choice { id: string; label: string; place: string | undefined }

/**
 * Assign Ambulance: only available ones; says so when there are none. Once the call's location
 * is known and the server has ranked them (`ranked`), by estimated arrival with distance and
 * ETA; else, with a known location (`near`), nearest first; else as the server lists them.
 */
export function AmbulanceSelect({ value, onChange, available, loading, disabled, near = null, ranked = null, pickedByHand = false, ranking = false, error, inputRef }: {
  value: string; onChange: (id: string) => void; available: AmbulanceDto[]; loading: boolean; disabled: boolean; near?: LatLon | null;
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
  const none = !loading && available.length === 0;
  const choices: Choice[] = ranked
    ? ranked.map(({ ambulance: a, suggestion }) => ({ id: String(a.id), label: suggestion ? suggestionLabel(suggestion) : a.license_plate, place: a.location?.placeName ?? undefined }))
    : availableByDistance(available, near).map(({ ambulance: a, meters }) => ({ id: String(a.id), label: plateWithDistance(a.license_plate, meters), place: a.location?.placeName ?? undefined }));
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
      slotProps={{ select: { renderValue: (v) => labelOf(String(v)), MenuProps: { slotProps: { list: listProps } } } }}
    >
      {choices.map((c) => (
        <MenuItem key={c.id} value={c.id}>
          <ListItemText primary={c.label} secondary={c.place} />
        </MenuItem>
      ))}
    </TextField>
  );
}
