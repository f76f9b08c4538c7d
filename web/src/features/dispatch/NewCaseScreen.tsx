import Box from '@mui/material/Box';
import { useCallback, useRef, useState } from 'react';
import { ScreenTitle } from '../../layout/ScreenTitle';
import { DispatchForm } from './DispatchForm';
import { ShareLinkPanel } from './ShareLinkPanel';
import { SupportPanel } from './SupportPanel';
import type { CreatedCall } from './useDispatchCase';

/**
 * /dashboard/new-case: the New Emergency Case form with its side panel. The last created call's
 * share link shows above the form, named, until the operator dismisses it or starts the next
 * call in the form: it is never left there to be read out as the next caller's link.
 */
export function NewCaseScreen() {
  const [created, setCreated] = useState<CreatedCall | null>(null);
  const locationRef = useRef<HTMLInputElement>(null);
  const clear = useCallback(() => setCreated(null), []);
  const dismiss = () => {
    setCreated(null);
    // The panel had the focus: the next call starts where a call does.
    locationRef.current?.focus();
  };
  return (
    <Box sx={{ maxWidth: 1200 }}>
      <ScreenTitle title="Emergency Response" subtitle="Create a new emergency case and dispatch an ambulance" />
      {created && <ShareLinkPanel call={created} onDismiss={dismiss} />}
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 2fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <DispatchForm onDispatched={setCreated} onNextCall={clear} locationRef={locationRef} />
        <SupportPanel />
      </Box>
    </Box>
  );
}
