import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { SearchIcon } from '../../../layout/icons';

/** SPEC's case search box (the cases screen's toolbar, admin Case Management). */
export function HistorySearchField({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  return (
    <TextField
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder="Search by patient, email, description..."
      size="small"
      type="search"
      sx={{ flex: '1 1 260px' }}
      slotProps={{
        htmlInput: { 'aria-label': 'Search cases', maxLength: 200 },
        input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> },
      }}
    />
  );
}
