import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { suggestionDetail, type RankedChoice } from '../location/suggestions';
import { capabilityWords } from '../shared/capabilityWords';

/** How many of the quickest are offered as one-click choices beside the select. */
const SHOWN = 3;

/**
 * The quickest free ambulances for the call's location as buttons, each with its capability in
 * words: one click (or Enter) takes one, the select below keeps them all. The one the form holds is pressed.
 */
export function SuggestedAmbulances({ ranked, value, onPick, disabled }: {
  ranked: RankedChoice[];
  value: string;
  onPick: (id: string) => void;
  disabled: boolean;
}) {
  const top = ranked.filter((r) => r.suggestion != null).slice(0, SHOWN);
  if (top.length === 0) {
    return <Typography variant="body2" color="text.secondary" data-testid="suggested-ambulances">No free ambulance with a known position to suggest.</Typography>;
  }
  return (
    <Box role="group" aria-labelledby="suggested-title" data-testid="suggested-ambulances" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
      <Typography id="suggested-title" variant="body2" color="text.secondary" sx={{ mr: 0.5 }}>Quickest to arrive:</Typography>
      {top.map(({ ambulance, suggestion }) => {
        const id = String(ambulance.id);
        const chosen = id === value;
        return (
          <Button
            key={id}
            type="button"
            size="small"
            variant={chosen ? 'contained' : 'outlined'}
            aria-pressed={chosen}
            disabled={disabled}
            onClick={() => onPick(id)}
            sx={{ textTransform: 'none', borderRadius: 4 }}
          >
            {/* One run of text: as separate flex items of the button, the three parts wrapped as columns. */}
            <Box component="span" sx={{ textAlign: 'left' }}>
              <Box component="span" sx={{ fontWeight: 600 }}>{ambulance.license_plate}</Box>
              {' '}
              <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums' }}>{suggestionDetail(suggestion!)}</Box>
              {` · ${capabilityWords(ambulance.capability)}`}
            </Box>
          </Button>
        );
      })}
    </Box>
  );
}
