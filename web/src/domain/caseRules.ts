import type { CaseDto } from '../api/contract';

/** A case still running: the only kind that holds an ambulance or counts as an emergency. */
export const isActiveCase = (c: Pick<CaseDto, 'status'>) => c.status === 'active';

/** The active cases among any list of cases. */
export const activeCasesOf = <T extends Pick<CaseDto, 'status'>>(cases: readonly T[]): T[] => cases.filter(isActiveCase);

/** SPEC §3: text after 'Patient: ' up to the next comma in the description, else patient_name, else 'Unknown Patient'. */
export function patientNameOf(c: Pick<CaseDto, 'description'> & { patient_name?: string | null; patientName?: string | null; full_name?: string | null }): string {
  const m = /Patient: ([^,]*)/.exec(c.description ?? '');
  const fromDescription = m?.[1].trim();
  return fromDescription || c.patient_name || c.patientName || c.full_name || 'Unknown Patient';
}

export { typeFromDescription } from '../api/contract';

/** Coloured top bar of a case card by caseType: Fire red, Hospitalization blue, Fighting orange, other grey. */
export function caseTypeColor(caseType: string | null | undefined): string {
  switch (caseType) {
    case 'Fire': return '#d32f2f';
    case 'Hospitalization': return '#1976d2';
    case 'Fighting': return '#ed6c02';
    default: return '#9e9e9e';
  }
}

export type BadgeTone = 'success' | 'error' | 'warning' | 'info' | 'default';

/** Status badge: active green, closed red, pending and resolved their own tone, anything else neutral grey. */
export function caseStatusTone(status: string | null | undefined): BadgeTone {
  switch (status) {
    case 'active': return 'success';
    case 'closed': return 'error';
    case 'pending': return 'warning';
    case 'resolved': return 'info';
    default: return 'default';
  }
}

/** The map link exists only when both coordinates do (SPEC §3); OpenStreetMap at zoom 18. */
export function mapLink(latitude: number | null | undefined, longitude: number | null | undefined): string | null {
  if (latitude == null || longitude == null) return null;
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=18/${latitude}/${longitude}`;
}

/** Case-insensitive search over id, description, status, patient name, email and location text. */
export function matchesSearch(c: CaseDto, query: string, placeText = ''): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [c.id, c.description, c.status, patientNameOf(c), c.email, placeText]
    .some((v) => (v ?? '').toString().toLowerCase().includes(q));
}

export type SortOrder = 'none' | 'asc' | 'desc';

/** Sorted by created_at; 'none' keeps the order as received. */
export function sortByCreated<T extends { created_at: string }>(items: T[], order: SortOrder): T[] {
  if (order === 'none') return items;
  const sign = order === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => sign * (Date.parse(a.created_at) - Date.parse(b.created_at)));
}

/** Long month with year, day, hour and minute in the user's locale, or 'Not Available'. */
export function formatDateTime(value: string | null | undefined, locale?: string): string {
  if (!value) return 'Not Available';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return 'Not Available';
  return d.toLocaleString(locale, { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
