/** A position's own time (not the current time), with seconds so movement is visible. */
export function formatPositionTime(value: string | null | undefined): string {
  if (!value) return 'Not Available';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return 'Not Available';
  return d.toLocaleString(undefined, { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
