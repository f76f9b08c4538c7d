import { type DemandReport, type HandoverReport, type ResponseTimesReport, type UtilisationReport, reportPeriodQuerySchema } from '../../contract';
import { reportService } from '../../services/reportService';
import { inReportSlot } from '../reportSlot';
import { validate } from '../validate';
import type { Mount } from './types';

/**
 * The report figures over a period ?from=&to=&tz= (docs/user-guide.md "Reports: how the figures are made"),
 * each made in one of the node's report slots and stopped if its client leaves.
 */
export const mountReports: Mount = (router, { svc }) => {
  router.get('/api/reports/response-times', { summary: 'Response times over a period', query: reportPeriodQuerySchema, ok: { shape: 'ResponseTimesReport' } }, async (ctx) => {
    const period = validate(reportPeriodQuerySchema, ctx.query);
    ctx.body = (await inReportSlot(ctx, svc, (signal) => reportService.responseTimes(svc, period, signal))) satisfies ResponseTimesReport;
  });
  router.get('/api/reports/utilisation', { summary: 'Unit hour utilisation over a period', query: reportPeriodQuerySchema, ok: { shape: 'UtilisationReport' } }, async (ctx) => {
    const period = validate(reportPeriodQuerySchema, ctx.query);
    ctx.body = (await inReportSlot(ctx, svc, (signal) => reportService.utilisation(svc, period, signal))) satisfies UtilisationReport;
  });
  router.get('/api/reports/demand', { summary: 'Demand over a period', query: reportPeriodQuerySchema, ok: { shape: 'DemandReport' } }, async (ctx) => {
    const period = validate(reportPeriodQuerySchema, ctx.query);
    ctx.body = (await inReportSlot(ctx, svc, (signal) => reportService.demand(svc, period, signal))) satisfies DemandReport;
  });
  router.get('/api/reports/handover', { summary: 'Hospital handover over a period, per destination', query: reportPeriodQuerySchema, ok: { shape: 'HandoverReport' } }, async (ctx) => {
    const period = validate(reportPeriodQuerySchema, ctx.query);
    ctx.body = (await inReportSlot(ctx, svc, (signal) => reportService.handover(svc, period, signal))) satisfies HandoverReport;
  });
};
