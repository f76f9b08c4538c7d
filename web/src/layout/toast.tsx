import { createContext, useCallback, useContext, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { useSnackbar, type SnackbarOrigin, type VariantType } from 'notistack';

/** Where toasts appear: top-right by default, bottom-right inside the admin portal. */
const ToastPlacement = createContext<SnackbarOrigin>({ vertical: 'top', horizontal: 'right' });

/**
 * Room a bottom toast needs (its offset, padding and one line of text, with a margin): a
 * page under bottom toasts ends with this much space, so that its last row (e.g. a table's
 * edit and delete buttons) can always be scrolled clear of a toast.
 */
export const BOTTOM_TOAST_ROOM = 96;

export function ToastPlacementProvider({ origin, children }: { origin: SnackbarOrigin; children: ReactNode }) {
  const bottom = origin.vertical === 'bottom';
  return (
    <ToastPlacement.Provider value={origin}>
      {/* display: contents — the wrapper adds a rule, not a box. */}
      <Box sx={{ display: 'contents', ...(bottom && { '& main': { pb: `${BOTTOM_TOAST_ROOM}px` } }) }}>{children}</Box>
    </ToastPlacement.Provider>
  );
}

/**
 * Shows a toast at the placement of the surrounding screen; it survives navigation. A toast
 * whose text is already on screen (or waiting) is not shown again (`preventDuplicate` of the
 * provider), so a repeated press or a repeated failure never stacks copies.
 */
export function useToast() {
  const { enqueueSnackbar } = useSnackbar();
  const anchorOrigin = useContext(ToastPlacement);
  return useCallback(
    (message: string, variant: VariantType = 'default') => enqueueSnackbar(message, { variant, anchorOrigin, preventDuplicate: true }),
    [enqueueSnackbar, anchorOrigin],
  );
}
