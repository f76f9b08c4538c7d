import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { SignOutEverywhereResponse, UserDto } from '../../../api/contract';
import { mutations } from '../../../api/mutations';
import { queries } from '../../../api/queries';
import { useApiMutation } from '../../../api/useApiMutation';
import { ScreenTitle } from '../../../layout/ScreenTitle';
import { useToast } from '../../../layout/toast';
import { AddIcon } from '../../../layout/icons';
import { withServerReason } from '../shared/errors';
import { useManagedList } from '../shared/useManagedList';
import { OperatorDialog } from './OperatorDialog';
import { SigninLimits } from './SigninLimits';
import { LoadStateBanner } from '../../shared/LoadStateBanner';
import { OperatorsTable } from './OperatorsTable';
import { emptyOperatorForm, formFromOperator, operatorBody } from './operatorForm';
import { signedOutText, signOutQuestion } from './signOutEverywhere';

/** /admin-dashboard/operators: list, add, edit and delete operator accounts, sign an operator out everywhere, and clear their sign-in limits (in Edit). */
export function OperatorsPage() {
  const toast = useToast();
  const { list: operators, load, dialog, open, close, save, remove, confirmDelete } = useManagedList({
    query: queries.operators(), noun: { one: 'Operator', many: 'operators' }, save: mutations.saveOperator, remove: mutations.deleteOperator,
  });

  // Typed with the whole row: the toast names whom it signed out.
  const signOut = useApiMutation<UserDto, SignOutEverywhereResponse>(mutations.signOutEverywhere, {
    onSuccess: ({ revoked }, u) => toast(signedOutText(u.name, revoked), 'success'),
    onError: (error) => toast(withServerReason(error, 'Failed to sign the operator out'), 'error'),
  });

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
        mode={dialog.row ? 'edit' : 'add'}
        initial={dialog.row ? formFromOperator(dialog.row) : emptyOperatorForm}
        saving={save.isPending}
        onCancel={close}
        onSave={(form) => save.mutate({ id: dialog.row?.id ?? null, body: operatorBody(form) })}
      >
        {dialog.open && dialog.row ? <SigninLimits userId={dialog.row.id} name={dialog.row.name} /> : null}
      </OperatorDialog>
    </>
  );
}
