import Chip from '@mui/material/Chip';
import { useQuery } from '@tanstack/react-query';
import type { Priority } from '../../api/contract';
import { queries } from '../../api/queries';
import { priorityInfo, priorityTag } from '../../domain/callLife';

const TONE = { 1: 'error', 2: 'warning', 3: 'info', 4: 'default' } as const;

/**
 * A call's priority: "P1 Life-threatening" with the label the server's configuration gives (the
 * NHS categories until it has loaded). `short` shows only "P1", the label then in its tooltip text.
 */
export function PriorityChip({ priority, short = false }: { priority: Priority; short?: boolean }) {
  const config = useQuery(queries.config());
  const label = priorityInfo(config.data, priority).label;
  const tone = TONE[priority] ?? 'default';
  return (
    <Chip
      size="small"
      data-testid="priority-chip"
      data-priority={priority}
      label={short ? priorityTag(priority) : `${priorityTag(priority)} ${label}`}
      title={short ? `${priorityTag(priority)} ${label}` : undefined}
      color={tone}
      variant={priority <= 2 ? 'filled' : 'outlined'}
      sx={{ fontWeight: 700 }}
    />
  );
}
