import { ApiError } from '../../api/client';
import { reportPeriodQuery } from '../../api/queries';
import { clearSession, getSession } from '../../auth/session';
import { addDays, type ReportPeriod } from './reportPeriod';

/** "lifeline-assignments-2026-11-01-to-2026-11-30.csv": the days it holds, both inclusive. */
export const csvFileName = (p: ReportPeriod) => `lifeline-assignments-${p.from}-to-${addDays(p.to, -1)}.csv`;

/**
 * Fetches the period's assignments CSV and hands it to the browser as a download. The session
 * is a bearer token held in JS (no cookie), so a plain link could not carry it: the file is
 * fetched with the header, then saved from a blob.
 */
export async function downloadAssignmentsCsv(period: ReportPeriod): Promise<void> {
  const token = getSession()?.token;
  const response = await fetch(`/api/reports/assignments.csv?${reportPeriodQuery(period)}`, {
    headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!response.ok) {
    if (response.status === 401) clearSession();
    const body = await response.json().catch(() => null) as { error?: unknown } | null;
    throw new ApiError(response.status, typeof body?.error === 'string' ? body.error : undefined);
  }
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = csvFileName(period);
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has started the download; the URL is no longer needed once this task ends.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
