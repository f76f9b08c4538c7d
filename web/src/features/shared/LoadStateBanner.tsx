import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { Ref } from 'react';
import { staleText } from './loadState';
import type { LoadState } from './useLoadState';

/** A failed load's Retry, on the paper (the error red on an alert's pink falls short of 4.5:1). */
export function RetryButton({ state, color, ref }: { state: Pick<LoadState, 'retry' | 'retrying'>; color: 'error' | 'warning'; ref?: Ref<HTMLButtonElement> }) {
  return (
    <Button
      ref={ref}
      color={color}
      variant="outlined"
      size="small"
      onClick={state.retry}
      disabled={state.retrying}
      startIcon={state.retrying ? <CircularProgress size={14} color="inherit" /> : undefined}
      sx={{ whiteSpace: 'nowrap', bgcolor: 'background.paper' }}
    >
      Retry
    </Button>
  );
}

/**
 * The one place a screen says its lists failed (a persistent panel with the spec's texts and
 * a Retry, until a load succeeds) or that the data it shows may be out of date. Draws
 * nothing while loading or when all is well.
 */
export function LoadStateBanner({ state }: { state: LoadState }) {
  const { stale } = state;
  const failed = state.phase === 'failed';
  if (!failed && !stale) return null;
  const tone = failed ? 'error' : 'warning';
  return (
    <Alert
      severity={tone}
      role={failed ? 'alert' : 'status'}
      data-testid={failed ? 'load-failure' : 'stale-notice'}
      action={<RetryButton state={state} color={tone} />}
      sx={{ mb: 2, alignItems: 'center' }}
    >
      {failed ? (
        <>
          {state.failures.map((text) => <Box key={text} sx={{ fontWeight: 600 }}>{text}</Box>)}
          <Box sx={{ typography: 'body2' }}>Nothing is shown until it loads: counts here are unknown, not zero.</Box>
        </>
      ) : stale && staleText(stale.reason, stale.since)}
    </Alert>
  );
}
