import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { CaseDto } from '../../api/contract';
import { formatDateTime, patientNameOf, typeFromDescription } from '../../domain/caseRules';
import { MapIcon } from '../../layout/icons';
import { CaseStatusBadge } from '../shared/StatusBadges';
import { CaseListItem } from './CaseListItem';
import { CaseLiveLines } from './LiveCaseInfo';
import { EmptyPanel } from './EmptyPanel';
import { OpenCallLines } from './OpenCallLines';
import { PriorityChip } from '../shared/PriorityChip';
import { SearchIcon } from '../../layout/icons';
import { HistoryPagination, type HistoryPaginationProps } from '../shared/caseHistory/HistoryPagination';
import { useCasePlaces } from './useCasePlaces';

const COLUMNS = ['Case Info', 'Description', 'Emergency Type', 'Status', 'Date', 'Actions'];

function CaseInfo({ item, place }: { item: CaseDto; place: string }) {
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <PriorityChip priority={item.priority} short />
        <Typography sx={{ fontWeight: 600 }}>{patientNameOf(item)}</Typography>
      </Box>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ fontFamily: 'monospace' }} title={item.id}>#{item.id.slice(0, 8)}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>{item.email}</Typography>
      <Typography variant="body2" color="text.secondary" data-testid="case-location">{place}</Typography>
      <CaseLiveLines item={item} />
      <OpenCallLines item={item} />
      {item.wkb && (
        <Typography variant="caption" color="text.secondary" component="div" title={item.wkb} noWrap sx={{ fontFamily: 'monospace', maxWidth: 220 }}>
          WKB: {item.wkb}
        </Typography>
      )}
    </>
  );
}

type Props = { cases: CaseDto[]; places: Map<string, string>; onMap: (c: CaseDto) => void };
const placeOf = (places: Map<string, string>, c: CaseDto) => places.get(c.id) ?? 'Location not specified';

function CasesTable({ cases, places, onMap }: Props) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" sx={{ minWidth: 860, '& td': { py: 1.5, verticalAlign: 'top' } }} aria-label="All cases">
        <TableHead>
          <TableRow>
            {COLUMNS.map((c) => <TableCell key={c} sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>{c}</TableCell>)}
          </TableRow>
        </TableHead>
        <TableBody>
          {cases.length === 0 ? (
            <TableRow>
              <TableCell colSpan={COLUMNS.length} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                No cases found matching your search criteria
              </TableCell>
            </TableRow>
          ) : cases.map((c) => (
            <TableRow key={c.id} hover data-testid="case-row">
              <TableCell sx={{ minWidth: 220 }}><CaseInfo item={c} place={placeOf(places, c)} /></TableCell>
              <TableCell sx={{ minWidth: 200, maxWidth: 320 }}>
                <Typography variant="body2" sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' }}>
                  {c.description || 'No description provided'}
                </Typography>
              </TableCell>
              <TableCell>{c.caseType || typeFromDescription(c.description) || '—'}</TableCell>
              <TableCell><CaseStatusBadge status={c.status} /></TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(c.created_at)}</TableCell>
              <TableCell>
                <Button size="small" variant="outlined" startIcon={<MapIcon />} onClick={() => onMap(c)}>Map</Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** On a phone the table's columns are stacked per case. */
function CasesList({ cases, places, onMap }: Props) {
  if (cases.length === 0) {
    return <Typography align="center" color="text.secondary" sx={{ py: 2 }}>No cases found matching your search criteria</Typography>;
  }
  return (
    <Box component="ul" aria-label="All cases" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
      {cases.map((c) => <CaseListItem key={c.id} item={c} place={placeOf(places, c)} onMap={() => onMap(c)} />)}
    </Box>
  );
}

/**
 * The All Cases tab: one page of history from the server (table, or a list on a phone), with
 * its pagination. The search, order and page are the screen's; this draws what it is given.
 */
export function AllCasesTable({ cases, pagination, onMap }: { cases: CaseDto[]; pagination: HistoryPaginationProps; onMap: (c: CaseDto) => void }) {
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const places = useCasePlaces(cases);
  const page = { cases, places, onMap };
  return (
    <Box>
      {phone ? <CasesList {...page} /> : <CasesTable {...page} />}
      {(cases.length > 0 || pagination.page > 0) && <HistoryPagination {...pagination} phone={phone} />}
      {cases.length === 0 && (
        <Box sx={{ mt: 2 }}>
          <EmptyPanel icon={<SearchIcon />} title="No cases found" text="Try adjusting your search or filters to find what you're looking for" />
        </Box>
      )}
    </Box>
  );
}
