import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SignOutEverywhereResponse, UserDto } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { queries } from '../../../api/queries';
import { useApiMutation } from '../../../api/useApiMutation';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { useToast } from '../../../layout/toast';
import { serverErrorOr, withServerReason } from '../shared/errors';
import { AddIcon } from '../../../layout/icons';
import { OperatorDialog } from './OperatorDialog';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { useErrorToast } from '../../shared/useErrorToast';
import { useLoadState } from '../../shared/useLoadState';
import { OperatorsTable } from './OperatorsTable';
import { emptyOperatorForm, formFromOperator, operatorBody } from './operatorForm';
import { signedOutText, signOutQuestion } from './signOutEverywhere';

/** The dialog keeps its operator while it animates closed; a new key starts a fresh form. */
interface DialogState { key: number; open: boolean; operator: UserDto | null }

/** /admin-dashboard/operators: list, add, edit and delete operator accounts, and sign an operator out everywhere. */
export function OperatorsPage() {
  const toast = useToast();
  const operators = useQuery(queries.operators());
  const [dialog, setDialog] = useState<DialogState>({ key: 0, open: false, operator: null });
  const close = () => setDialog((d) => ({ ...d, open: false }));

  useErrorToast(operators.error, operators.errorUpdatedAt, () => 'Failed to fetch operators');
  const load = useLoadState([{ query: operators, failText: () => 'Failed to fetch operators' }]);

  const save = useApiMutation(mutations.saveOperator, {
    onSuccess: (_r, { id }) => {
      toast(id == null ? 'Operator added successfully' : 'Operator updated successfully', 'success');
      close();
    },
    onError: (error) => toast(serverErrorOr(error, 'Failed to save operator'), 'error'),
  });

  const remove = useApiMutation(mutations.deleteOperator, {
    onSuccess: () => toast('Operator deleted successfully', 'success'),
    onError: (error) => toast(withServerReason(error, 'Failed to delete operator'), 'error'),
  });

  // Typed with the whole row: the toast names whom it signed out.
  const signOut = useApiMutation<UserDto, SignOutEverywhereResponse>(mutations.signOutEverywhere, {
    onSuccess: ({ revoked }, u) => toast(signedOutText(u.name, revoked), 'success'),
    onError: (error) => toast(withServerReason(error, 'Failed to sign the operator out'), 'error'),
  });

  const open = (operator: UserDto | null) => setDialog((d) => ({ key: d.key + 1, open: true, operator }));
  const confirmDelete = (u: UserDto) => {
    if (window.confirm('Are you sure you want to delete this operator?')) remove.mutate(u.id);
  };
  const confirmSignOut = (u: UserDto) => {
    if (window.confirm(signOutQuestion(u.name))) signOut.mutate(u);
  };

  return (
    <>
      <ScreenTitle
        title="Manage Operators"
        subtitle="Dispatcher accounts, their shifts and contact details"
        actions={<Button variant="contained" startIcon={<AddIcon />} onClick={() => open(null)}>Add Operator</Button>}
      />
      <LoadStateBanner state={load} />
      {load.phase === 'failed' ? null : load.phase === 'loading' ? (
        <Box role="status" aria-label="Loading operators" sx={{ display: 'grid', placeItems: 'center', py: 10 }}>
          <CircularProgress />
        </Box>
      ) : (
        <OperatorsTable
          operators={operators.data ?? []}
          deletingId={remove.isPending ? (remove.variables ?? null) : null}
          signingOutId={signOut.isPending ? (signOut.variables?.id ?? null) : null}
          onEdit={(u) => open(u)}
          onDelete={confirmDelete}
          onSignOut={confirmSignOut}
        />
      )}
      <OperatorDialog
        key={dialog.key}
        open={dialog.open}
        mode={dialog.operator ? 'edit' : 'add'}
        initial={dialog.operator ? formFromOperator(dialog.operator) : emptyOperatorForm}
        saving={save.isPending}
        onCancel={close}
        onSave={(form) => save.mutate({ id: dialog.operator?.id ?? null, body: operatorBody(form) })}
      />
    </>
  );
}
