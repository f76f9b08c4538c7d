import { type DemandReport, type ResponseTimesReport, type UtilisationReport, reportPeriodQuerySchema } from '../../contract';
import { reportService } from '../../services/reportService';
import { validate } from '../validate';
import type { Mount } from './types';

/** The report figures over a period ?from=&to=&tz= (README "Reports: how the figures are made"). */
export const mountReports: Mount = (router, { svc }) => {
  router.get('/api/reports/response-times', async (ctx) => {
    ctx.body = (await reportService.responseTimes(svc, validate(reportPeriodQuerySchema, ctx.query))) satisfies ResponseTimesReport;
  });
  router.get('/api/reports/utilisation', async (ctx) => {
    ctx.body = (await reportService.utilisation(svc, validate(reportPeriodQuerySchema, ctx.query))) satisfies UtilisationReport;
  });
  router.get('/api/reports/demand', async (ctx) => {
    ctx.body = (await reportService.demand(svc, validate(reportPeriodQuerySchema, ctx.query))) satisfies DemandReport;
  });
};
