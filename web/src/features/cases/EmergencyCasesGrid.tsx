import Box from '@mui/material/Box';
import { useState } from 'react';
import type { CaseDto } from '../../api/contract';
import { patientNameOf } from '../../domain/caseRules';
import { CallTimesDialog } from './CallTimesDialog';
import { CaseCard } from './CaseCard';
import { EmptyPanel } from './EmptyPanel';
import { CheckCircleIcon } from '../../layout/icons';

/** The Emergency Cases tab: a card per open call (active or waiting), in the order given. */
export function EmergencyCasesGrid({ cases, places, onMap }: { cases: CaseDto[]; places: Map<string, string>; onMap: (c: CaseDto) => void }) {
  const [times, setTimes] = useState<CaseDto | null>(null);
  if (cases.length === 0) {
    return (
      <EmptyPanel
        icon={<CheckCircleIcon color="success" />}
        title="No active emergency cases"
        text="All clear! There are currently no active emergency cases."
      />
    );
  }
  return (
    <>
      <Box component="section" aria-label="Open calls, most urgent first" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' } }}>
        {cases.map((c) => (
          <CaseCard key={c.id} item={c} place={places.get(c.id) ?? 'Location not specified'} onMap={() => onMap(c)} onTimes={() => setTimes(c)} />
        ))}
      </Box>
      {times && <CallTimesDialog caseId={times.id} name={patientNameOf(times)} onClose={() => setTimes(null)} />}
    </>
  );
}
