import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { queries } from '../../api/queries';
import { DEFAULT_PRIORITIES } from '../../domain/callLife';
import { formPriority, priorityOptionLabel } from './intake';

/**
 * Priority 1–4 with the configured labels. It follows the emergency type (as the server would
 * derive it) until the operator picks one; the helper text says which of the two it is.
 */
export function PrioritySelect({ picked, emergencyType, onPick, disabled }: {
  /** The operator's own choice, '' while the type decides. */
  picked: string;
  emergencyType: string;
  onPick: (priority: string) => void;
  disabled: boolean;
}) {
  const config = useQuery(queries.config());
  const priorities = config.data?.priorities ?? DEFAULT_PRIORITIES;
  const value = formPriority(picked, emergencyType);
  const helper = picked !== '' ? 'Set by hand' : value != null ? `From the emergency type (${emergencyType})` : 'Follows the emergency type until you pick one';
  return (
    <TextField
      select
      fullWidth
      label="Priority"
      value={value == null ? '' : String(value)}
      onChange={(e) => onPick(e.target.value)}
      disabled={disabled}
      helperText={helper}
    >
      {priorities.map((p) => <MenuItem key={p.priority} value={String(p.priority)}>{priorityOptionLabel(p)}</MenuItem>)}
    </TextField>
  );
}
