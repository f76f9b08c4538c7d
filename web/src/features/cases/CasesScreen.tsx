import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ScreenTitle } from '../../layout/ScreenTitle';
import { AllCasesTable } from './AllCasesTable';
import { CasesToolbar } from './CasesToolbar';
import { EmergencyCasesGrid } from './EmergencyCasesGrid';
import { HeaderCount } from './HeaderCount';
import { useCasesBoard } from './useCasesBoard';
import { useOpenCaseMap } from './useOpenCaseMap';
import { knownOr } from '../shared/loadState';
import { LoadStateBanner } from '../shared/LoadStateBanner';

type TabKey = 'emergency' | 'all';

function TabLabel({ text, count }: { text: string; count: number | null }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      {text}
      {count != null && <Chip size="small" label={count} sx={{ height: 20, fontSize: 12, fontWeight: 700 }} />}
    </Box>
  );
}

/** /dashboard/cases: the Emergency Response Dashboard, live through the query cache. */
export function CasesScreen() {
  const board = useCasesBoard();
  const openMap = useOpenCaseMap();
  const [tab, setTab] = useState<TabKey>('emergency');
  const known = (n: number) => knownOr(board.load.phase, n);

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
        search={board.search}
        onSearch={board.setSearch}
        order={board.order}
        onSort={board.toggleSort}
        refreshing={board.refreshing}
        onRefresh={board.refresh}
      />
      <Tabs value={tab} onChange={(_, v: TabKey) => setTab(v)} variant="scrollable" allowScrollButtonsMobile sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="emergency" label={<TabLabel text="Emergency Cases" count={known(board.visibleOpen.length)} />} />
        <Tab value="all" label={<TabLabel text="All Cases" count={known(board.visible.length)} />} />
      </Tabs>
      <LoadStateBanner state={board.load} />
      {board.load.phase === 'failed' ? null : board.load.phase === 'loading' ? (
        <Box role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 8 }}>
          <CircularProgress />
          <Typography color="text.secondary">Loading emergency cases...</Typography>
        </Box>
      ) : tab === 'emergency' ? (
        <EmergencyCasesGrid cases={board.visibleOpen} places={board.places} onMap={openMap} />
      ) : (
        <AllCasesTable cases={board.visible} places={board.places} onMap={openMap} resetKey={`${board.search}\n${board.order}`} />
      )}
    </Box>
  );
}
