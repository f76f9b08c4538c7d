import { Readable } from 'node:stream';
import { reportPeriodQuerySchema } from '../../contract/reportSchemas';
import { assignmentCsv, csvFilename } from '../../services/assignmentCsv';
import { streamInReportSlot } from '../reportSlot';
import { validate } from '../validate';
import type { Mount } from './types';

/**
 * GET /api/reports/assignments.csv?from=&to=&tz=: one row per assignment of the calls that came
 * in during the period, streamed page by page (no Content-Length: chunked), so a year never sits
 * in memory; a client that goes away destroys the stream, which ends the reads. It holds one of
 * the node's report slots until the stream ends.
 */
export const mountReportsCsv: Mount = (router, { svc }) => {
  router.get('/api/reports/assignments.csv', { summary: 'Every assignment of the calls that came in during a period, as CSV (streamed)', query: reportPeriodQuerySchema, ok: { type: 'text/csv' } }, async (ctx) => {
    const period = validate(reportPeriodQuerySchema, ctx.query);
    // Bytes, not objects: the stream buffers 16 KB ahead of the socket, not 16 pages.
    const body = await streamInReportSlot(ctx, svc, async (signal) => Readable.from(await assignmentCsv(svc.db, period, signal), { objectMode: false }));
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="${csvFilename(period)}"`);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = body;
  });
};
