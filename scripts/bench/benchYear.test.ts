import { describe, expect, it } from 'vitest';
import { bench } from './benchRun.testing';

/**
 * The harness measures (not the figures): a tiny run against a real server process must see
 * every position reach every viewer, time it, poll, ingest, and write the JSON the issue names.
 */
describe('npm run bench: reports and history over a small year (smoke)', () => {
  it('runs the reports scenario alone: a small year built, the CSV of 30 days and of the year timed', async () => {
    const { r } = await bench(['--smoke', '--scenarios', 'reports']);
    const rep = r.details.reports;
    expect(rep.year.assignments).toBe(r.report_assignments);
    expect(rep.year.assignments).toBeGreaterThan(4500);
    for (const k of ['csv_30d', 'csv_year']) {
      expect(rep[k].status, k).toBe(200);
      expect(rep[k].median_ms, k).toBeGreaterThan(0);
      expect(rep[k].server_peak_rss_mb, k).toBeGreaterThan(20);
      // The server was asked for /api/config while the report ran, and answered.
      expect(rep[k].probes, k).toBeGreaterThan(0);
      expect(rep[k].probe_max_ms, k).toBeGreaterThanOrEqual(rep[k].probe_median_ms);
    }
    // The year's file holds every assignment: over 100 bytes a row.
    expect(rep.csv_year.bytes).toBeGreaterThan(rep.year.assignments * 100);
    expect(rep.csv_year.bytes).toBeGreaterThan(rep.csv_30d.bytes * 10);
    expect(r.csv_year_ms).toBe(rep.csv_year.median_ms);
    // The fleet's scenarios did not run.
    expect(r.details.fleet).toBeUndefined();
  }, 90_000);

  it('runs the history scenario on a tiny year: the board, pages by cursor and searches asked and timed, the event loop read', async () => {
    // The fleet's fan-out, which the scenario runs on the year and on an empty database, has its own smoke test above.
    // SQLite only, whatever the run's DATABASE_URL (a postgres:// one adds the PostgreSQL pass, which CI's env has).
    const { DATABASE_URL: _omitted, ...sqliteOnly } = process.env;
    const { r, text } = await bench(['--smoke', '--scenarios', 'history', '--history-cases', '1000', '--history-samples', '2', '--no-history-fanout'], sqliteOnly);
    expect(r.details.fleet).toBeUndefined();
    const [h] = r.details.history;
    expect(h.engine).toBe('sqlite');
    expect(h.year).toMatchObject({ cases: 1000 });
    expect(h.year.assignments).toBeGreaterThan(990);
    expect(r.history).toEqual([{ engine: 'sqlite', cases: 1000, targets_met: expect.any(Number), targets: h.checks.length }]);
    // The board answered, was timed, and its size counted on the wire and decompressed.
    expect(h.board).toMatchObject({ status: 200, ok: true });
    expect(h.board.latency.n).toBe(2);
    expect(h.board.raw_bytes).toBeGreaterThan(h.board.wire_bytes);
    for (const g of [h.board, h.first_page, ...Object.values<any>(h.searches)]) {
      expect(g.latency.n, g.path).toBeGreaterThan(0);
      // The server's own event-loop delay max over the group, from its /api/metrics.
      expect(g.event_loop_max_ms, g.path).toBeGreaterThan(0);
    }
    expect(h.searches.id_prefix.path).toMatch(/q=[0-9a-f]{8}$/);
    // Every page walked by cursor (1,000 calls: 40 pages of 25), none twice; the searched calls found.
    expect(h.page_walk).toMatchObject({ pages: 40, rows: 1000, duplicates: 0 });
    expect(h.page_walk.error).toBeUndefined();
    for (const k of ['name', 'id_prefix', 'address_word', 'plate']) expect(h.searches[k].ok, k).toBe(true);
    expect(h.searches.id_prefix.total).toBe(1);
    expect(h.fanout).toEqual({});
    expect(h.checks.map((c: string[]) => c[0])).toContain('server event-loop delay max');
    expect(text).toMatch(/history sqlite: board: latency/);
  }, 90_000);
});
