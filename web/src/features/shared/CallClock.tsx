import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { alpha, useTheme } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import type { CaseDto } from '../../api/contract';
import { queries } from '../../api/queries';
import { priorityInfo } from '../../domain/callLife';
import { ErrorIcon, TimerIcon, WarningIcon } from '../../layout/icons';
import { callClock, clockCaption } from './callLifeText';
import { useServerNow } from './useNow';

const LOOK = {
  ok: { icon: <TimerIcon fontSize="small" />, palette: null },
  amber: { icon: <WarningIcon fontSize="small" />, palette: 'warning' },
  red: { icon: <ErrorIcon fontSize="small" />, palette: 'error' },
} as const;

/**
 * A call's response clock, ticking every second on the server's time: "Since call 4:05 · target
 * 15:00", amber past 80 % of the target and red past it, each state also in words and an icon.
 * No live region: a clock announced every second would drown a screen reader.
 */
export function CallClock({ item }: { item: Pick<CaseDto, 'status' | 'priority' | 'call_received_at' | 'assignments'> }) {
  const now = useServerNow(1000);
  const config = useQuery(queries.config());
  const k = callClock(item, priorityInfo(config.data, item.priority), now, config.data);
  const look = LOOK[k.state];
  const theme = useTheme();
  // On the tinted background the light theme's main tones fall just under 4.5:1: its dark tones read.
  const colour = look.palette ? theme.palette[look.palette][theme.palette.mode === 'dark' ? 'main' : 'dark'] : theme.palette.text.secondary;
  return (
    <Box
      data-testid="call-clock"
      data-state={k.state}
      data-seconds={k.seconds}
      sx={(t) => ({
        display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, rowGap: 0.25, px: 1, py: 0.5, borderRadius: 1.5,
        color: colour,
        bgcolor: look.palette ? alpha(t.palette[look.palette].main, t.palette.mode === 'dark' ? 0.16 : 0.08) : 'action.hover',
      })}
    >
      {look.icon}
      <Typography variant="body2" component="span" sx={{ color: 'text.secondary' }}>{clockCaption(k)}</Typography>
      <Typography variant="h6" component="span" data-testid="call-clock-value" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 800, color: k.state === 'ok' ? 'text.primary' : colour, lineHeight: 1.2 }}>
        {k.clock}
      </Typography>
      <Typography variant="caption" component="span" sx={{ color: 'text.secondary' }}>{k.target}</Typography>
      <Typography variant="caption" component="span" data-testid="call-target-state" sx={{ fontWeight: 700, color: colour, ml: 'auto' }}>
        {k.stateText}
      </Typography>
    </Box>
  );
}
