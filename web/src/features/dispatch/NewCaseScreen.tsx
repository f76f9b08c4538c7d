import Box from '@mui/material/Box';
import { useState } from 'react';
import { ScreenTitle } from '../../layout/ScreenTitle';
import { DispatchForm } from './DispatchForm';
import { ShareLinkPanel } from './ShareLinkPanel';
import { SupportPanel } from './SupportPanel';

/** /dashboard/new-case: the New Emergency Case form with its side panel. */
export function NewCaseScreen() {
  const [shareLink, setShareLink] = useState<string | null>(null);
  return (
    <Box sx={{ maxWidth: 1200 }}>
      <ScreenTitle title="Emergency Response" subtitle="Create a new emergency case and dispatch an ambulance" />
      {shareLink && <ShareLinkPanel link={shareLink} />}
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 2fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <DispatchForm onDispatched={setShareLink} />
        <SupportPanel />
      </Box>
    </Box>
  );
}
