import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { DeleteIcon, EditIcon } from '../../../layout/icons';

/** The edit and delete buttons of a table row; `what` names the row for screen readers. */
export function RowActions({ what, onEdit, onDelete, deleting = false }: {
  what: string;
  onEdit: () => void;
  onDelete?: () => void;
  deleting?: boolean;
}) {
  return (
    <Stack direction="row" spacing={0.5}>
      <Tooltip title="Edit">
        <IconButton size="small" color="primary" aria-label={`Edit ${what}`} onClick={onEdit}>
          <EditIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {onDelete && (
        <Tooltip title="Delete">
          <span>
            <IconButton size="small" color="error" aria-label={`Delete ${what}`} onClick={onDelete} disabled={deleting}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      )}
    </Stack>
  );
}
