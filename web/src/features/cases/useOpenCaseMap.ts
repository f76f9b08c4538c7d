import { useCallback } from 'react';
import type { CaseDto } from '../../api/contract';
import { mapLink } from '../../domain/caseRules';
import { useToast } from '../../layout/toast';

/** Opens a case's location on the open map in a new tab, or warns that it has none. */
export function useOpenCaseMap() {
  const toast = useToast();
  return useCallback((c: Pick<CaseDto, 'latitude' | 'longitude'>) => {
    const url = mapLink(c.latitude, c.longitude);
    if (!url) toast('Location not available for this case', 'warning');
    else window.open(url, '_blank', 'noopener,noreferrer');
  }, [toast]);
}
