import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CaseDto } from '../../api/contract';
import { queries } from '../../api/queries';
import { openBackups } from './backupRules';

/** The crews' requests for backup on one call that no unit has answered yet, oldest first (the call's card). */
export function useCallBackups(item: Pick<CaseDto, 'id' | 'status' | 'assignments' | 'backup_request'>) {
  const held = useQuery(queries.backupAlerts()).data;
  return useMemo(() => openBackups(held?.filter((a) => a.case_id === item.id), [item]), [held, item]);
}
