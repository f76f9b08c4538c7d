import Box from '@mui/material/Box';
import type { CaseDto } from '../../api/contract';
import { isOpenCall } from '../../domain/callLife';
import { CallClock } from '../shared/CallClock';
import { UnitStatusLine } from '../shared/UnitStatusLine';
import { UnitStepControl } from '../shared/UnitStepControl';
import { movableAssignment } from '../shared/callLifeText';

/** An open call's clock, unit and next step, compact (All Cases table and its phone list); nothing for a closed case. */
export function OpenCallLines({ item }: { item: CaseDto }) {
  if (!isOpenCall(item)) return null;
  const movable = movableAssignment(item);
  return (
    <Box sx={{ display: 'grid', gap: 0.75, mt: 0.75, maxWidth: 360 }}>
      <CallClock item={item} />
      {item.assignment && item.status !== 'pending' && <UnitStatusLine assignment={item.assignment} />}
      {movable && <UnitStepControl ambulanceId={movable.ambulance_id} plate={movable.license_plate} status={movable.status} />}
    </Box>
  );
}
