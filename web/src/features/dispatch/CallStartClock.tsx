import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useServerNow } from '../shared/useNow';
import { callStartedText } from './intake';

/**
 * When the operator started taking the call: a "Call started" button until then (the first
 * keystroke in the form starts it too), then the running time with a Reset for a new call.
 * Its own component, so the ticking second re-renders only this line; no live region (a
 * clock read out every second would drown the screen reader).
 */
export function CallStartClock({ startMs, onStart, onReset, disabled }: {
  startMs: number | null;
  onStart: () => void;
  onReset: () => void;
  disabled: boolean;
}) {
  return (
    <Box data-call-clock sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1.5, mb: 2.5, minHeight: 36 }}>
      {startMs == null ? (
        <>
          <Button variant="outlined" size="small" onClick={onStart} disabled={disabled}>Call started</Button>
          <Typography variant="body2" color="text.secondary">or start typing: the call's clock starts at the first keystroke.</Typography>
        </>
      ) : (
        <>
          <Running startMs={startMs} />
          <Button size="small" onClick={onReset} disabled={disabled} aria-label="Reset the call's start time">Reset</Button>
        </>
      )}
    </Box>
  );
}

function Running({ startMs }: { startMs: number }) {
  const now = useServerNow(1000);
  return (
    <Typography variant="body2" data-testid="call-started" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
      {callStartedText(startMs, Math.max(now, startMs))}
    </Typography>
  );
}
