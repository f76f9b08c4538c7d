import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { CaseDto } from '../../api/contract';
import { formatDateTime, patientNameOf, typeFromDescription } from '../../domain/caseRules';
import { MapIcon } from '../../layout/icons';
import { CaseStatusBadge } from '../shared/StatusBadges';
import { CaseLiveLines } from './LiveCaseInfo';
import { OpenCallLines } from './OpenCallLines';
import { PriorityChip } from '../shared/PriorityChip';

/** One case of the All Cases tab on a phone: the table's columns, stacked, with an open call's clock and unit. */
export function CaseListItem({ item, place, onMap }: { item: CaseDto; place: string; onMap: () => void }) {
  const type = item.caseType || typeFromDescription(item.description) || '—';
  return (
    <Paper variant="outlined" component="li" data-testid="case-row" sx={{ p: 2, display: 'grid', gap: 0.75 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{patientNameOf(item)}</Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>#{item.id.slice(0, 8)}</Typography>
        </Box>
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
          <PriorityChip priority={item.priority} short />
          <CaseStatusBadge status={item.status} />
        </Box>
      </Box>
      <OpenCallLines item={item} />
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>{item.email}</Typography>
      <Box>
        <Typography variant="body2" color="text.secondary" data-testid="case-location">{place}</Typography>
        <CaseLiveLines item={item} />
      </Box>
      {item.wkb && (
        <Typography variant="caption" color="text.secondary" noWrap title={item.wkb} sx={{ fontFamily: 'monospace' }}>WKB: {item.wkb}</Typography>
      )}
      <Typography variant="body2" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' }}>
        {item.description || 'No description provided'}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mt: 0.5 }}>
        <Typography variant="caption" color="text.secondary">{type} · {formatDateTime(item.created_at)}</Typography>
        <Button size="small" variant="outlined" startIcon={<MapIcon />} onClick={onMap}>Map</Button>
      </Box>
    </Paper>
  );
}
