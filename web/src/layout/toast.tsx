import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { useSnackbar, type SnackbarOrigin, type VariantType } from 'notistack';

/** Where toasts appear: top-right by default, bottom-right inside the admin portal. */
const ToastPlacement = createContext<SnackbarOrigin>({ vertical: 'top', horizontal: 'right' });

export function ToastPlacementProvider({ origin, children }: { origin: SnackbarOrigin; children: ReactNode }) {
  return <ToastPlacement.Provider value={origin}>{children}</ToastPlacement.Provider>;
}

/** Shows a toast at the placement of the surrounding screen; it survives navigation. */
export function useToast() {
  const { enqueueSnackbar } = useSnackbar();
  const anchorOrigin = useContext(ToastPlacement);
  return useCallback(
    (message: string, variant: VariantType = 'default') => enqueueSnackbar(message, { variant, anchorOrigin }),
    [enqueueSnackbar, anchorOrigin],
  );
}
