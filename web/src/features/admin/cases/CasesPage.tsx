import Button from '@mui/material/Button';
import TablePagination from '@mui/material/TablePagination';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactElement } from 'react';
import type { CaseDto } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { queries } from '../../../api/queries';
import { useApiMutation } from '../../../api/useApiMutation';
import { sortByCreated } from '../../../domain/caseRules';
import { casesTableOrder } from '../../shared/callLifeText';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { useToast } from '../../../layout/toast';
import { withServerReason } from '../shared/errors';
import { ArrowDownIcon, ArrowUpIcon, WarningIcon } from '../../../layout/icons';
import { CasesTable } from './CasesTable';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { useLoadState } from '../../shared/useLoadState';
import { usePagedRows } from '../../shared/usePagedRows';
import { EditCaseDialog } from './EditCaseDialog';

interface DialogState { key: number; open: boolean; caseRow: CaseDto | null }

type Order = 'urgent' | 'desc' | 'asc';
const NEXT_ORDER: Record<Order, Order> = { urgent: 'desc', desc: 'asc', asc: 'urgent' };
const ORDER_TEXT: Record<Order, string> = { urgent: 'Most urgent first', desc: 'Newest first', asc: 'Oldest first' };
const ORDER_ICON: Record<Order, ReactElement> = { urgent: <WarningIcon />, desc: <ArrowDownIcon />, asc: <ArrowUpIcon /> };

/**
 * /admin-dashboard/cases: every case with edit and delete. By default the open calls come first
 * in the boards' order (priority, waiting first, oldest first), the others after, newest first;
 * the button turns to creation date, newest or oldest first. Shown a page at a time (the demo
 * history alone is over a thousand cases); a new order starts again on the first page.
 */
export function CasesPage() {
  const toast = useToast();
  const cases = useQuery(queries.cases());
  // SPEC §8 ignores this screen's failures silently; an empty table would then read as "no cases", so it says so.
  const load = useLoadState([{ query: cases, failText: () => 'Could not load cases' }]);
  const [order, setOrder] = useState<Order>('urgent');
  const [dialog, setDialog] = useState<DialogState>({ key: 0, open: false, caseRow: null });
  const sorted = useMemo(() => (order === 'urgent' ? casesTableOrder(cases.data ?? []) : sortByCreated(cases.data ?? [], order)), [cases.data, order]);
  const { pageRows, pagination } = usePagedRows(sorted, order);

  const remove = useApiMutation(mutations.deleteCase, {
    onError: (error) => toast(withServerReason(error, 'Failed to delete case'), 'error'),
  });

  const confirmDelete = (c: CaseDto) => {
    if (window.confirm('Are you sure you want to delete this case?')) remove.mutate(c.id);
  };
  const close = () => setDialog((d) => ({ ...d, open: false }));

  return (
    <>
      <ScreenTitle
        title="Case Management"
        subtitle="All Cases"
        actions={(
          <Button
            variant="outlined"
            onClick={() => setOrder((o) => NEXT_ORDER[o])}
            endIcon={ORDER_ICON[order]}
            aria-label={`Order: ${ORDER_TEXT[order].toLowerCase()} (press for ${ORDER_TEXT[NEXT_ORDER[order]].toLowerCase()})`}
          >
            {ORDER_TEXT[order]}
          </Button>
        )}
      />
      <LoadStateBanner state={load} />
      {load.phase !== 'failed' && <CasesTable
        cases={pageRows}
        loading={load.phase === 'loading'}
        deletingId={remove.isPending ? (remove.variables ?? null) : null}
        onEdit={(c) => setDialog((d) => ({ key: d.key + 1, open: true, caseRow: c }))}
        onDelete={confirmDelete}
      />}
      {load.phase === 'loaded' && sorted.length > 0 && <TablePagination component="div" {...pagination} />}
      {dialog.caseRow && (
        <EditCaseDialog
          key={dialog.key}
          open={dialog.open}
          caseRow={dialog.caseRow}
          onClose={close}
          onSaved={() => {
            toast('Case updated successfully', 'success');
            close();
          }}
        />
      )}
    </>
  );
}
