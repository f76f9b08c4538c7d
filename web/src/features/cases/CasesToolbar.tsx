import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import type { SortOrder } from '../../domain/caseRules';
import { ArrowDownIcon, ArrowUpIcon, RefreshIcon, SwapVertIcon } from '../../layout/icons';
import { HistorySearchField } from '../shared/caseHistory/HistorySearchField';

const SORT_HINT: Record<SortOrder, string> = {
  none: 'Most urgent first (press to sort by creation date)',
  asc: 'Oldest first (press for newest first)',
  desc: 'Newest first (press for oldest first)',
};

/** Search box, creation-date sort toggle and Refresh. */
export function CasesToolbar(props: {
  search: string; onSearch: (v: string) => void;
  order: SortOrder; onSort: () => void;
  refreshing: boolean; onRefresh: () => void;
}) {
  const sortIcon = props.order === 'asc' ? <ArrowUpIcon /> : props.order === 'desc' ? <ArrowDownIcon /> : <SwapVertIcon />;
  return (
    <Paper variant="outlined" sx={{ p: 1.5, mb: 2, display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
      <HistorySearchField value={props.search} onChange={props.onSearch} />
      <Tooltip title={SORT_HINT[props.order]} describeChild>
        <Button variant="outlined" color="inherit" startIcon={sortIcon} onClick={props.onSort} data-order={props.order} sx={{ flex: { xs: 1, sm: 'none' } }}>
          Sort
        </Button>
      </Tooltip>
      <Button
        variant="contained"
        color="secondary"
        startIcon={props.refreshing ? <CircularProgress size={16} color="inherit" /> : <RefreshIcon />}
        onClick={props.onRefresh}
        disabled={props.refreshing}
        sx={{ flex: { xs: 1, sm: 'none' } }}
      >
        Refresh
      </Button>
    </Paper>
  );
}
