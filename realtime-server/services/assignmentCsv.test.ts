import { describe, expect, it } from 'vitest';
import type { AssignmentExportRow } from '../../db/repositories/assignmentExportRepository';
import { CSV_BOM, capabilityCells, csvChunks, csvFilename, csvHeader, csvRow, hospitalCells, isoCell, quoteField, safeText } from './assignmentCsv';

/** The CSV's cells and lines (RFC 4180, OWASP's formula defusing), without a database. */
const row = (over: Partial<AssignmentExportRow> = {}): AssignmentExportRow => ({
  case_id: 'c-1', assignment_id: 7, priority: 1, case_type: 'Heart Attack', license_plate: 'TS09 EA 1001', status: 'cleared',
  call_received_at: '2026-11-01T10:00:00.000Z', dispatched_at: '2026-11-01T10:00:40.000Z', en_route_at: '2026-11-01T10:01:30.000Z',
  on_scene_at: '2026-11-01T10:09:00.000Z', transporting_at: '2026-11-01T10:25:00.000Z', at_hospital_at: '2026-11-01T10:40:00.000Z',
  cleared_at: '2026-11-01T11:00:00.000Z', cancelled_at: null, capability: 'als',
  handover_at: null, destination_name: null, destination_reason: null, prealert_activation: null, prealert_sent_at: null,
  ...over,
});

describe('assignment CSV', () => {
  it('heads the file with exactly the contract columns, NEMSIS names for the times, the capability after them, then the hospital end, after the byte order mark', async () => {
    expect(csvHeader()).toBe('case_id,assignment_id,priority,emergency_type,license_plate,outcome,eTimes.01,eTimes.03,eTimes.05,eTimes.06,eTimes.09,eTimes.11,eTimes.13,eTimes.14,capability,eResponse.07,'
      + 'eTimes.12,eDisposition.01,eDisposition.20,eDisposition.24,eDisposition.25\r\n');
    const chunks: string[] = [];
    for await (const c of csvChunks((async function* () { /* no rows */ })())) chunks.push(c);
    expect(chunks).toEqual([CSV_BOM + csvHeader()]);
    expect(Buffer.from(CSV_BOM, 'utf8')).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('writes one line per assignment, CRLF-ended, times as ISO 8601 UTC', () => {
    expect(csvRow(row())).toBe('c-1,7,1,Heart Attack,TS09 EA 1001,cleared,2026-11-01T10:00:00.000Z,2026-11-01T10:00:40.000Z,2026-11-01T10:01:30.000Z,'
      + '2026-11-01T10:09:00.000Z,2026-11-01T10:25:00.000Z,2026-11-01T10:40:00.000Z,2026-11-01T11:00:00.000Z,,als,2207015,,,,,\r\n');
  });

  it('writes the hospital end: the handover time, the destination\'s name and reason, the latest pre-alert\'s activation and sent time', () => {
    const line = csvRow(row({
      handover_at: '2026-11-01T10:52:00.000Z', destination_name: 'Royal General', destination_reason: 'specialty',
      prealert_activation: 'stemi', prealert_sent_at: '2026-11-01T10:31:00.000Z',
    }));
    expect(line.replace('\r\n', '').split(',').slice(16)).toEqual(['2026-11-01T10:52:00.000Z', 'Royal General', 'specialty', 'stemi', '2026-11-01T10:31:00.000Z']);
    const none = { handover_at: null, destination_name: null, destination_reason: null, prealert_activation: null, prealert_sent_at: null };
    expect(hospitalCells(none)).toBe(',,,,');
    // A name an admin typed is defused and quoted like any typed text.
    expect(hospitalCells({ ...none, destination_name: '=St Mary\'s, "North"' })).toBe(',"\'=St Mary\'s, ""North""",,,');
    // eDisposition.20 and .24 are the contract's values; anything else would be broken data, left empty (nor a prototype's key).
    for (const reason of ['closest', 'specialty', 'protocol', 'patient_choice', 'diversion', 'other']) expect(hospitalCells({ ...none, destination_reason: reason })).toBe(`,,${reason},,`);
    for (const activation of ['none', 'stemi', 'stroke', 'trauma', 'cardiac_arrest', 'sepsis', 'other']) expect(hospitalCells({ ...none, prealert_activation: activation })).toBe(`,,,${activation},`);
    expect(hospitalCells({ ...none, destination_reason: '=cmd', prealert_activation: 'toString' })).toBe(',,,,');
  });

  it('writes each unit\'s capability as dispatched and its NEMSIS eResponse.07 code', () => {
    const cells = (capability: string) => csvRow(row({ capability })).replace('\r\n', '').split(',').slice(14, 16);
    expect(cells('als')).toEqual(['als', '2207015']);
    expect(cells('bls')).toEqual(['bls', '2207017']);
    expect(cells('cct')).toEqual(['cct', '2207019']);
    expect(cells('responder')).toEqual(['responder', '2207021']);
    // Anything else would be broken data: two empty cells, never passed on (nor a prototype's key).
    expect(capabilityCells('=cmd')).toBe(',');
    expect(capabilityCells('toString')).toBe(',');
    expect(capabilityCells(null)).toBe(',');
    expect(csvRow(row()).split(',')).toHaveLength(21);
  });

  it('leaves a skipped step empty, and a cancelled assignment says so with its cancel time', () => {
    const line = csvRow(row({ status: 'cancelled', en_route_at: null, transporting_at: null, at_hospital_at: null, cleared_at: null, cancelled_at: '2026-11-01T10:12:00.000Z' }));
    expect(line.split(',')).toEqual(['c-1', '7', '1', 'Heart Attack', 'TS09 EA 1001', 'cancelled', '2026-11-01T10:00:00.000Z', '2026-11-01T10:00:40.000Z',
      '', '2026-11-01T10:09:00.000Z', '', '', '', '2026-11-01T10:12:00.000Z', 'als', '2207015', '', '', '', '', '\r\n']);
    expect(csvRow(row({ case_type: null })).split(',')[3]).toBe('');
  });

  it('quotes a field with a comma, quote, CR or LF and doubles its quotes (RFC 4180 §2.6–2.7)', () => {
    expect(quoteField('plain text')).toBe('plain text');
    expect(quoteField('Fall, outdoors')).toBe('"Fall, outdoors"');
    expect(quoteField('the "big" one')).toBe('"the ""big"" one"');
    expect(quoteField('two\nlines')).toBe('"two\nlines"');
    expect(quoteField('two\r\nlines')).toBe('"two\r\nlines"');
    const line = csvRow(row({ case_type: 'Fall, "bad"\nsecond line' }));
    expect(line).toContain(',"Fall, ""bad""\nsecond line",');
    expect(line.endsWith('\r\n')).toBe(true);
  });

  it('defuses text that a spreadsheet would run as a formula: =, +, -, @, tab, CR', () => {
    for (const [typed, cell] of [['=1+1', "'=1+1"], ['+SUM(A1:A9)', "'+SUM(A1:A9)"], ['-2', "'-2"], ['@cmd', "'@cmd"], ['\tindent', "'\tindent"], ['\rreturn', "'\rreturn"]]) {
      expect(safeText(typed), JSON.stringify(typed)).toBe(cell);
    }
    for (const harmless of ['Stroke', 'a=b', 'x-ray', 'mail@host', ' =padded']) expect(safeText(harmless)).toBe(harmless);
    // In the line: defused first, then quoted when it needs quotes (a CR must be inside quotes).
    const line = csvRow(row({ case_type: '=HYPERLINK("http://x","y")', license_plate: '\rPLATE' }));
    expect(line).toContain(`,"'=HYPERLINK(""http://x"",""y"")","'\rPLATE",`);
  });

  it('keeps times the server wrote and normalises any other instant to UTC', () => {
    expect(isoCell('2026-11-01T10:00:00.000Z')).toBe('2026-11-01T10:00:00.000Z');
    expect(isoCell('2026-11-01T15:30:00+05:30')).toBe('2026-11-01T10:00:00.000Z');
    expect(isoCell(null)).toBe('');
    expect(isoCell('')).toBe('');
  });

  it('names the download by the first and last local day of the half-open period', () => {
    expect(csvFilename({ from: '2026-11-01T00:00:00.000Z', to: '2026-12-01T00:00:00.000Z', tz: 'UTC' })).toBe('lifeline-assignments-2026-11-01-to-2026-11-30.csv');
    // Midnight in Kolkata is 18:30 UTC the day before.
    expect(csvFilename({ from: '2026-10-31T18:30:00.000Z', to: '2026-11-30T18:30:00.000Z', tz: 'Asia/Kolkata' })).toBe('lifeline-assignments-2026-11-01-to-2026-11-30.csv');
  });

  it('makes one chunk per page of rows', async () => {
    const pages = (async function* () { yield [row(), row({ assignment_id: 8 })]; yield [row({ assignment_id: 9 })]; })();
    const chunks: string[] = [];
    for await (const c of csvChunks(pages)) chunks.push(c);
    expect(chunks).toHaveLength(3);
    expect(chunks[1].split('\r\n').filter(Boolean).map((l) => l.split(',')[1])).toEqual(['7', '8']);
  });
});
