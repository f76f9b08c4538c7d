import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { patientNameOf } from '../../domain/caseRules';
import { ambulanceStatusText } from '../../domain/fleetRules';
import { ambulanceFix, caseFix } from '../../domain/liveText';
import { StaleChip } from '../cases/LiveCaseInfo';
import { CapabilityIcon } from '../shared/CapabilityChip';
import { capabilityWords } from '../shared/capabilityWords';
import { AmbulanceStatusBadge } from '../shared/StatusBadges';
import { unitColor, unitLabel } from '../fleet/unitStatus';
import { STALE_OPACITY, type LocatedAmbulance, type LocatedCase } from './FleetMap';
import { PATIENT_COLOR } from './markerIcons';
import { useStaleThresholds } from './liveHooks';

const itemSx = { borderRadius: 1, gap: 1, justifyContent: 'space-between' } as const;

/** A marker's colour dot, faded like its marker when the position is stale. */
function Dot({ color, stale }: { color: string; stale: boolean }) {
  return <Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: color, flexShrink: 0, opacity: stale ? STALE_OPACITY : 1 }} />;
}

/** The located ambulances beside the map; choosing one opens it on the map and draws its trail. */
export function AmbulanceList({ ambulances, now, lateIds, selectedId, onShow }: {
  ambulances: LocatedAmbulance[];
  now: number;
  /** Still dispatched past the turnout target: said in words beside the unit status. */
  lateIds?: ReadonlySet<number>;
  selectedId: number | null;
  onShow: (id: number) => void;
}) {
  const thresholds = useStaleThresholds();
  return (
    <>
      <Typography variant="subtitle2" sx={{ fontWeight: 700, px: 2, pt: 1.5 }}>Ambulances on the map</Typography>
      <List dense sx={{ overflowY: 'auto', flex: '1 1 auto', minHeight: 180, px: 1 }} aria-label="Ambulances on the map" data-testid="map-ambulance-list">
        {ambulances.map((a) => {
          const stale = ambulanceFix(a, now, thresholds)?.stale ?? true;
          const late = lateIds?.has(a.id) ?? false;
          return (
            <ListItem key={a.id} disablePadding><ListItemButton
              data-testid="map-list-item"
              data-stale={stale}
              selected={a.id === selectedId}
              aria-current={a.id === selectedId ? 'true' : undefined}
              onClick={() => onShow(a.id)}
              sx={itemSx}
            >
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                <Dot color={unitColor(a)} stale={stale} />
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>{a.license_plate}</Typography>
                  <Typography variant="caption" color="text.secondary" noWrap component="div" data-testid="map-capability" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                    <CapabilityIcon capability={a.capability} fontSize="inherit" />
                    {capabilityWords(a.capability)}
                  </Typography>
                  {/* The unit's step, unless the badge beside it already says the same ("Available"). */}
                  {unitLabel(a).toLowerCase() !== ambulanceStatusText(a.status).toLowerCase() && (
                    <Typography variant="caption" color="text.secondary" noWrap component="div" data-testid="map-unit-status">
                      {unitLabel(a)}
                      {late && <Box component="span" sx={{ color: 'error.main', fontWeight: 700 }}> · Turnout late</Box>}
                    </Typography>
                  )}
                </Box>
              </Box>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexShrink: 0 }}>
                {stale && <StaleChip title="No position from this ambulance for more than 2 minutes" />}
                <AmbulanceStatusBadge status={a.status} />
              </Box>
            </ListItemButton></ListItem>
          );
        })}
      </List>
    </>
  );
}

/** The calls on the map: the patient's last fix, or that the place is the one given on the call; choosing one opens it on the map. */
export function PatientList({ patients, now, onShow }: { patients: LocatedCase[]; now: number; onShow: (id: string) => void }) {
  if (patients.length === 0) return null;
  return (
    <>
      <Typography variant="subtitle2" sx={{ fontWeight: 700, px: 2, pt: 1, borderTop: 1, borderColor: 'divider' }}>Patients</Typography>
      <List dense sx={{ overflowY: 'auto', maxHeight: 200, minHeight: 56, flexShrink: 0, px: 1 }} aria-label="Patients on the map">
        {patients.map((c) => {
          const fix = caseFix(c, now);
          return (
            <ListItem key={c.id} disablePadding><ListItemButton data-testid="map-patient-item" data-stale={!!fix?.stale} onClick={() => onShow(c.id)} sx={itemSx}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                <Dot color={PATIENT_COLOR} stale={!!fix?.stale} />
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>{patientNameOf(c)}</Typography>
                  <Typography variant="caption" color="text.secondary" noWrap component="div" data-testid="map-patient-fix">
                    {fix ? `Last fix: ${fix.time}${fix.accuracy ? ` · ${fix.accuracy}` : ''}` : 'Not shared: the place given on the call'}
                  </Typography>
                </Box>
              </Box>
              {fix?.stale && <StaleChip title="The patient's position is more than 2 minutes old" />}
            </ListItemButton></ListItem>
          );
        })}
      </List>
    </>
  );
}
