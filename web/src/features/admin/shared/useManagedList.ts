import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useState } from 'react';
import type { Write } from '../../../api/mutations';
import { useApiMutation } from '../../../api/useApiMutation';
import { useToast } from '../../../layout/toast';
import { useErrorToast } from '../../shared/useErrorToast';
import { useLoadState } from '../../shared/useLoadState';
import { serverErrorOr, withServerReason } from './errors';

/** The dialog keeps its row while it animates closed; a new key starts a fresh form. */
export interface DialogState<Row> { key: number; open: boolean; row: Row | null }

/** How a managed list names its rows in SPEC's texts: 'Ambulance' / 'ambulances', 'Operator' / 'operators'. */
export interface Noun { one: string; many: string }

/**
 * What the admin's manage screens (ambulances, operators) share: the list and its load state,
 * the add/edit dialog, saving and deleting with SPEC's toasts, and the delete confirmation.
 */
export function useManagedList<Row extends { id: number }, Body, Saved, Key extends QueryKey>(opts: {
  query: UseQueryOptions<Row[], Error, Row[], Key>;
  noun: Noun;
  save: Write<{ id: number | null; body: Body }, Saved>;
  remove: Write<number, unknown>;
}) {
  const { noun } = opts;
  const lower = noun.one.toLowerCase();
  const toast = useToast();
  const list = useQuery(opts.query);
  const [dialog, setDialog] = useState<DialogState<Row>>({ key: 0, open: false, row: null });
  const close = () => setDialog((d) => ({ ...d, open: false }));
  const open = (row: Row | null) => setDialog((d) => ({ key: d.key + 1, open: true, row }));

  useErrorToast(list.error, list.errorUpdatedAt, () => `Failed to fetch ${noun.many}`);
  const load = useLoadState([{ query: list, failText: () => `Failed to fetch ${noun.many}` }]);

  const save = useApiMutation(opts.save, {
    onSuccess: (_r, { id }) => {
      toast(id == null ? `${noun.one} added successfully` : `${noun.one} updated successfully`, 'success');
      close();
    },
    onError: (error) => toast(serverErrorOr(error, `Failed to save ${lower}`), 'error'),
  });
  const remove = useApiMutation(opts.remove, {
    onSuccess: () => toast(`${noun.one} deleted successfully`, 'success'),
    onError: (error) => toast(withServerReason(error, `Failed to delete ${lower}`), 'error'),
  });
  const confirmDelete = (row: Row) => {
    if (window.confirm(`Are you sure you want to delete this ${lower}?`)) remove.mutate(row.id);
  };

  return { list, load, dialog, open, close, save, remove, confirmDelete };
}
