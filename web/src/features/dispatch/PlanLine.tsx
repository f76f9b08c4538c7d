import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import type { DispatchPlan, DispatchPlanUnit } from '../../api/contract';
import { planReasonText } from '../cases/callUnits';
import { alsoSendText } from './dispatchPlan';

/**
 * The server's plan for the call's priority, in its words ("Suggested: car TS09 EA 1008, ~2 min;
 * ambulance TS09 EA 1001, ~9 min: send both"), and when it sends two, the second unit as a ticked
 * box the dispatcher may untick.
 */
export function PlanLine({ plan, partner, checked, onCheck, disabled }: {
  plan: DispatchPlan;
  /** The plan's second unit while the form holds its first; null otherwise. */
  partner: DispatchPlanUnit | null;
  checked: boolean;
  onCheck: (on: boolean) => void;
  disabled: boolean;
}) {
  if (!plan.send.length) return null;
  return (
    <Box data-testid="dispatch-plan" sx={{ display: 'grid', gap: 0.25 }}>
      <Typography variant="body2" color="text.secondary" data-testid="dispatch-plan-reason">{planReasonText(plan)}</Typography>
      {partner && (
        <FormControlLabel
          control={<Checkbox checked={checked} onChange={(e) => onCheck(e.target.checked)} disabled={disabled} size="small" />}
          label={<Typography variant="body2">{alsoSendText(partner)}</Typography>}
          data-testid="dispatch-also-send"
        />
      )}
    </Box>
  );
}
