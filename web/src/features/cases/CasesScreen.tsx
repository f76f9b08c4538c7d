import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { ScreenTitle } from '../../layout/ScreenTitle';
import { AllCasesTable } from './AllCasesTable';
import { CasesToolbar } from './CasesToolbar';
import { EmergencyCasesGrid } from './EmergencyCasesGrid';
import { HeaderCount } from './HeaderCount';
import { useCasesBoard } from './useCasesBoard';
import { useOpenCaseMap } from './useOpenCaseMap';
import { knownOr } from '../shared/loadState';
import { LoadStateBanner } from '../shared/LoadStateBanner';
import { HistoryChangesBanner } from '../shared/caseHistory/HistoryChangesBanner';
import { totalText } from '../shared/caseHistory/HistoryPagination';
import type { CasesScreenSearch, CasesTab } from '../shared/caseHistory/historySearch';
import { useCaseHistory, type GoToSearch } from '../shared/caseHistory/useCaseHistory';

const route = getRouteApi('/_operator/dashboard/cases');

function TabLabel({ text, count }: { text: string; count: number | string | null }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      {text}
      {count != null && <Chip size="small" label={count} sx={{ height: 20, fontSize: 12, fontWeight: 700 }} />}
    </Box>
  );
}

function Loading() {
  return (
    <Box role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 8 }}>
      <CircularProgress />
      <Typography color="text.secondary">Loading emergency cases...</Typography>
    </Box>
  );
}

/**
 * /dashboard/cases: the Emergency Response Dashboard. The Emergency Cases tab is the live
 * board; All Cases is history, a page at a time from the server. The tab, search, order and
 * page are the route's search params (a link or a reload shows the same; Back works).
 */
export function CasesScreen() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const go = useCallback<GoToSearch<CasesScreenSearch>>((next, o) => void navigate({ search: next, replace: o?.replace }), [navigate]);
  const tab: CasesTab = search.tab ?? 'emergency';
  const history = useCaseHistory(search, go, { enabled: tab === 'all' });
  const board = useCasesBoard(history.text, search.order ?? 'none');
  const openMap = useOpenCaseMap();
  const known = (n: number | null) => (n == null ? null : knownOr(board.load.phase, n));
  const load = tab === 'all' ? history.load : board.load;
  // On All Cases the order is the history's (newest first until pressed); on the board, board order until pressed.
  const order = tab === 'all' ? history.order : (search.order ?? 'none');
  const allCount = history.load.phase === 'loaded' ? totalText(history.pagination) : null;

  return (
    <Box sx={{ maxWidth: 1400 }}>
      <ScreenTitle
        title="Emergency Response Dashboard"
        subtitle="Active emergencies and every case, updated live"
        actions={
          <Box sx={{ display: 'flex', gap: 1.5 }}>
            <HeaderCount label="Active Cases" value={known(board.activeCount)} color="primary" />
            <HeaderCount label="Total Cases" value={known(board.totalCount)} color="info" />
          </Box>
        }
      />
      <CasesToolbar
        search={history.text}
        onSearch={history.setText}
        order={order}
        onSort={() => history.setOrder(order === 'asc' ? 'desc' : 'asc')}
        refreshing={tab === 'all' ? history.refreshing : board.refreshing}
        onRefresh={tab === 'all' ? history.refresh : board.refresh}
      />
      <Tabs
        value={tab}
        onChange={(_, v: CasesTab) => go({ ...search, tab: v === 'all' ? 'all' : undefined })}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="emergency" label={<TabLabel text="Emergency Cases" count={known(board.visibleOpen.length)} />} />
        <Tab value="all" label={<TabLabel text="All Cases" count={allCount} />} />
      </Tabs>
      <LoadStateBanner state={load} />
      {tab === 'all' && load.phase === 'loaded' && <HistoryChangesBanner count={history.changes} onShow={history.refresh} />}
      {load.phase === 'failed' ? null : load.phase === 'loading' ? <Loading /> : tab === 'emergency' ? (
        <EmergencyCasesGrid cases={board.visibleOpen} places={board.places} onMap={openMap} />
      ) : (
        <AllCasesTable cases={history.cases} pagination={history.pagination} onMap={openMap} />
      )}
    </Box>
  );
}
