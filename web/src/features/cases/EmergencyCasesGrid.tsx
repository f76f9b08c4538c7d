import Box from '@mui/material/Box';
import type { CaseDto } from '../../api/contract';
import { CaseCard } from './CaseCard';
import { EmptyPanel } from './EmptyPanel';
import { CheckCircleIcon } from '../../layout/icons';

/** The Emergency Cases tab: a card per active case. */
export function EmergencyCasesGrid({ cases, places, onMap }: { cases: CaseDto[]; places: Map<string, string>; onMap: (c: CaseDto) => void }) {
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
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' } }}>
      {cases.map((c) => (
        <CaseCard key={c.id} item={c} place={places.get(c.id) ?? 'Location not specified'} onMap={() => onMap(c)} />
      ))}
    </Box>
  );
}
