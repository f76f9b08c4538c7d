import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { PRESET_LABELS, PRESETS, type Preset } from './reportPeriod';

export interface PeriodChoice {
  preset: Preset;
  /** The custom days, both shown (inclusive), YYYY-MM-DD. */
  first: string;
  last: string;
}

/** The period picker: a preset, or Custom with its first and last day. */
export function PeriodPicker({ value, onChange, problem }: { value: PeriodChoice; onChange: (v: PeriodChoice) => void; problem: string | null }) {
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <TextField
        select
        size="small"
        label="Period"
        value={value.preset}
        onChange={(e) => onChange({ ...value, preset: e.target.value as Preset })}
        sx={{ minWidth: 180 }}
      >
        {PRESETS.map((p) => <MenuItem key={p} value={p}>{PRESET_LABELS[p]}</MenuItem>)}
      </TextField>
      {value.preset === 'custom' && (
        <>
          <TextField
            size="small"
            type="date"
            label="First day"
            value={value.first}
            onChange={(e) => onChange({ ...value, first: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
            error={problem != null}
          />
          <TextField
            size="small"
            type="date"
            label="Last day"
            value={value.last}
            onChange={(e) => onChange({ ...value, last: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
            error={problem != null}
            helperText={problem ?? ' '}
          />
        </>
      )}
    </Box>
  );
}
