import { useQuery } from '@tanstack/react-query';
import { queries } from '../../../api/queries';
import { usePollingFallback } from '../../../realtime/LiveProvider';
import { useNow } from '../../shared/useNow';
import { localDate } from '../../../api/contract';
import { browserTimeZone } from '../reportPeriod';

/** How often the date is read: a page left open past midnight starts the new day within a minute. */
const DATE_TICK_MS = 60_000;

/**
 * Today's response-times report, from local midnight to now. Kept live by the socket (call
 * changes refetch the reports key, throttled in the live cache); polled only while the socket
 * is down. At midnight the date in the key changes, so the new day is a new query.
 */
export function useTodayReport() {
  const tz = browserTimeZone();
  const date = localDate(useNow(DATE_TICK_MS), tz);
  const query = useQuery({ ...queries.todayReport(date, tz), refetchInterval: usePollingFallback(30_000) });
  return { date, query };
}

/** The last 30 days for the admin's measured line (refetched with the other reports as calls change). */
export function useMeasuredReport() {
  return useQuery({ ...queries.measuredReport(browserTimeZone()), refetchInterval: usePollingFallback(60_000) });
}
