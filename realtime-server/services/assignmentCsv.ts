// The assignments export as CSV (RFC 4180): the cells and lines (pure), and the period's file as chunks for the route to stream.
import { type AssignmentExportRow, assignmentExportRepository } from '../../db/repositories/assignmentExportRepository';
import type { Db } from '../../db/repositories/types';
import { type Capability, NEMSIS_CAPABILITY } from '../contract/capability';
import { ACTIVATIONS, DESTINATION_REASONS } from '../contract/hospitals';
import { ASSIGNMENT_CSV_COLUMNS } from '../contract/reports';
import { localDate } from '../contract/zonedTime';

/**
 * UTF-8's byte order mark, first in the file: without it Excel reads a UTF-8 CSV in the
 * machine's legacy code page and garbles every non-ASCII emergency type or plate. Other
 * readers (LibreOffice, pandas, Python's `utf-8-sig`) skip it.
 */
export const CSV_BOM = '\uFEFF';
const EOL = '\r\n';

/** Characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"): =, +, -, @, tab, carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A cell of text people typed: a leading formula character is defused with a single quote, so it shows as text. */
export function safeText(v: string | null | undefined): string {
  if (v === null || v === undefined) return '';
  return FORMULA_START.test(v) ? `'${v}` : v;
}

/** RFC 4180 §2.6–2.7: a field with a comma, quote, CR or LF goes in double quotes, its quotes doubled. */
export function quoteField(v: string): string {
  return NEEDS_QUOTES.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A stored time as ISO 8601 UTC (what the server writes already; anything else normalised), empty for a skipped step. */
export function isoCell(v: string | null | undefined): string {
  if (!v) return '';
  // The server writes toISOString(): 24 characters ending in Z (a year's export checks millions of these).
  if (v.length === 24 && v.charCodeAt(23) === 90 && ISO_UTC.test(v)) return v;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString();
}

export const csvHeader = () => ASSIGNMENT_CSV_COLUMNS.join(',') + EOL;

/**
 * The capability cells: the stored value and its NEMSIS eResponse.07 code. Only a known
 * capability is written (the server writes nothing else); anything else would be broken data,
 * left as two empty cells rather than passed on to a spreadsheet.
 */
export function capabilityCells(capability: string | null | undefined): string {
  return capability != null && Object.hasOwn(NEMSIS_CAPABILITY, capability) ? `${capability},${NEMSIS_CAPABILITY[capability as Capability]}` : ',';
}

const REASONS: ReadonlySet<string> = new Set(DESTINATION_REASONS);
const ACTIVATION_CODES: ReadonlySet<string> = new Set(ACTIVATIONS);
/** A value of one of the contract's sets (eDisposition.20's reasons, .24's activations), empty for anything else (broken data, never passed on). */
const known = (set: ReadonlySet<string>, v: string | null | undefined) => (v != null && set.has(v) ? v : '');

/**
 * The hospital end's cells: eTimes.12, the destination's name (typed by an admin: defused and
 * quoted as any typed text) and reason, the latest pre-alert's activation and sent time.
 */
export function hospitalCells(r: Pick<AssignmentExportRow, 'handover_at' | 'destination_name' | 'destination_reason' | 'prealert_activation' | 'prealert_sent_at'>): string {
  return `${isoCell(r.handover_at)},${quoteField(safeText(r.destination_name))},${known(REASONS, r.destination_reason)},`
    + `${known(ACTIVATION_CODES, r.prealert_activation)},${isoCell(r.prealert_sent_at)}`;
}

/**
 * One assignment as one CSV line, the cells in ASSIGNMENT_CSV_COLUMNS' order; the outcome is its
 * final or current step. Only the text people typed can need quotes (the emergency type, the plate,
 * the destination's name): ids, numbers, steps, capabilities, reasons, activations and ISO times
 * never hold a comma, quote or line break.
 */
export function csvRow(r: AssignmentExportRow): string {
  return `${r.case_id},${r.assignment_id},${r.priority},${quoteField(safeText(r.case_type))},${quoteField(safeText(r.license_plate))},${r.status},`
    + `${isoCell(r.call_received_at)},${isoCell(r.dispatched_at)},${isoCell(r.en_route_at)},${isoCell(r.on_scene_at)},`
    + `${isoCell(r.transporting_at)},${isoCell(r.at_hospital_at)},${isoCell(r.cleared_at)},${isoCell(r.cancelled_at)},${capabilityCells(r.capability)},`
    + `${hospitalCells(r)}${EOL}`;
}

/** The download's name: the period's first and last local day, e.g. lifeline-assignments-2026-11-01-to-2026-11-30.csv. */
export function csvFilename(period: { from: string; to: string; tz: string }): string {
  const first = localDate(Date.parse(period.from), period.tz);
  // The period is half-open: its last day is the one holding the instant before `to`.
  const last = localDate(Date.parse(period.to) - 1, period.tz);
  return `lifeline-assignments-${first}-to-${last}.csv`;
}

/** The whole file as chunks: the mark and the header, then one chunk per page of rows. */
export async function* csvChunks(pages: AsyncIterable<AssignmentExportRow[]>): AsyncGenerator<string> {
  yield CSV_BOM + csvHeader();
  for await (const rows of pages) {
    let chunk = '';
    for (const r of rows) chunk += csvRow(r);
    yield chunk;
  }
}

/**
 * The period's export, ready to stream. The first page is read here, before the answer starts,
 * so that a failing query is still an error answer; the rest is read as the client takes it,
 * until `signal` aborts (the client left).
 */
export async function assignmentCsv(db: Db, period: { from: string; to: string }, signal?: AbortSignal): Promise<AsyncGenerator<string>> {
  const pages = assignmentExportRepository.pages(db, period.from, period.to, { signal });
  const first = await pages.next();
  async function* all() {
    if (!first.done) yield first.value;
    yield* pages;
  }
  return csvChunks(all());
}
