import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import type { CaseDto } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { useApiMutation } from '../../../api/useApiMutation';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { useToast } from '../../../layout/toast';
import { withServerReason } from '../shared/errors';
import { ArrowDownIcon, ArrowUpIcon } from '../../../layout/icons';
import { CasesTable } from './CasesTable';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { HistoryChangesBanner } from '../../shared/caseHistory/HistoryChangesBanner';
import { HistoryPagination } from '../../shared/caseHistory/HistoryPagination';
import { HistorySearchField } from '../../shared/caseHistory/HistorySearchField';
import type { HistorySearch } from '../../shared/caseHistory/historySearch';
import { useCaseHistory, type GoToSearch } from '../../shared/caseHistory/useCaseHistory';
import { EditCaseDialog } from './EditCaseDialog';

/** The admin table's own wording (it was so before the table paged on the server). */
const adminCasesFailText = () => 'Could not load cases';

const route = getRouteApi('/_admin/admin-dashboard/cases');

interface DialogState { key: number; open: boolean; caseRow: CaseDto | null }

/**
 * /admin-dashboard/cases: every case with edit and delete, a page at a time from the server,
 * searched there; SPEC's sort button toggles the creation date, newest first to start. The
 * search, order and page are the route's search params (a link or a reload shows the same).
 */
export function CasesPage() {
  const toast = useToast();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const go = useCallback<GoToSearch<HistorySearch>>((next, o) => void navigate({ search: next, replace: o?.replace }), [navigate]);
  // SPEC §8 ignores this screen's failures silently; an empty table would then read as "no cases", so it says so.
  const history = useCaseHistory(search, go, { failText: adminCasesFailText });
  const { load } = history;
  const [dialog, setDialog] = useState<DialogState>({ key: 0, open: false, caseRow: null });

  // The reader's own edit or delete shows at once: the page is fetched again (others' changes wait for the banner).
  const remove = useApiMutation(mutations.deleteCase, {
    onSuccess: history.refresh,
    onError: (error) => toast(withServerReason(error, 'Failed to delete case'), 'error'),
  });

  const confirmDelete = (c: CaseDto) => {
    if (window.confirm('Are you sure you want to delete this case?')) remove.mutate(c.id);
  };
  const close = () => setDialog((d) => ({ ...d, open: false }));
  const asc = history.order === 'asc';

  return (
    <>
      <ScreenTitle
        title="Case Management"
        subtitle="All Cases"
        actions={(
          <Button
            variant="outlined"
            onClick={() => history.setOrder(asc ? 'desc' : 'asc')}
            endIcon={asc ? <ArrowUpIcon /> : <ArrowDownIcon />}
            aria-label={asc ? 'Order: oldest first (press for newest first)' : 'Order: newest first (press for oldest first)'}
          >
            {asc ? 'Oldest first' : 'Newest first'}
          </Button>
        )}
      />
      <Paper variant="outlined" sx={{ p: 1.5, mb: 2, display: 'flex' }}>
        <HistorySearchField value={history.text} onChange={history.setText} />
      </Paper>
      <LoadStateBanner state={load} />
      {load.phase === 'loaded' && <HistoryChangesBanner count={history.changes} onShow={history.refresh} />}
      {load.phase !== 'failed' && <CasesTable
        cases={history.cases}
        loading={load.phase === 'loading'}
        deletingId={remove.isPending ? (remove.variables ?? null) : null}
        onEdit={(c) => setDialog((d) => ({ key: d.key + 1, open: true, caseRow: c }))}
        onDelete={confirmDelete}
      />}
      {load.phase === 'loaded' && (history.cases.length > 0 || history.pagination.page > 0) && (
        <Box><HistoryPagination {...history.pagination} /></Box>
      )}
      {dialog.caseRow && (
        <EditCaseDialog
          key={dialog.key}
          open={dialog.open}
          caseRow={dialog.caseRow}
          onClose={close}
          onSaved={() => {
            history.refresh();
            toast('Case updated successfully', 'success');
            close();
          }}
        />
      )}
    </>
  );
}
