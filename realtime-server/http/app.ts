import Koa from 'koa';
import { createGeocoder, type Geocoder } from '../services/geocodeService';
import type { ServiceContext } from '../services/context';
import { notFound } from '../services/errors';
import { authenticate } from './middleware/auth';
import { limitBodyDepth } from './middleware/bodyDepth';
import { errorHandler, requestLogger } from './middleware/errors';
import { compressJson } from './middleware/compression';
import { logAppErrors } from './clientAbort';
import { GatedRouter } from './gatedRouter';
import { serveSpa } from './spa';
import { jsonBody } from './middleware/jsonBody';
import { noStoreUnder, securityHeaders } from './middleware/security';
import { mountOutboxAndGeocode } from './routes/admin';
import { mountAmbulances } from './routes/ambulances';
import { mountAuth } from './routes/auth';
import { mountCases } from './routes/cases';
import { mountDevices } from './routes/devices';
import { mountDispatch } from './routes/dispatch';
import { mountDispatchSuggestions } from './routes/dispatchSuggestions';
import { mountHealth } from './routes/health';
import { mountHospitals } from './routes/hospitals';
import { mountMetrics } from './routes/metrics';
import { mountOpenApi } from './routes/openapi';
import { mountPublic } from './routes/public';
import { mountReports } from './routes/reports';
import { mountReportsCsv } from './routes/reportsCsv';
import { mountUsers } from './routes/users';

const API_PREFIXES = ['/api/', '/live-location', '/socket.io'];
/** Answers that may carry patient data, links or sessions: never cached unless a route says otherwise. */
const NO_STORE_PREFIXES = ['/api/', '/live-location'];

/** The Koa app: security headers (no-store on API answers) → JSON compression → errors → logging → JSON body → auth → routes, then the built SPA. Does not listen. */
export function createApp(svc: ServiceContext, opts: { geocoder?: Geocoder } = {}) {
  const app = new Koa({ proxy: false });
  logAppErrors(app, svc.log);
  // Every route is gated by its entry in policies/permissions.ts `access`.
  const router = new GatedRouter();
  const deps = { svc, geocoder: opts.geocoder ?? createGeocoder(svc) };
  for (const mount of [mountHealth, mountAuth, mountCases, mountDispatch, mountDispatchSuggestions, mountAmbulances, mountDevices, mountHospitals, mountUsers, mountPublic, mountOutboxAndGeocode, mountMetrics, mountReports, mountReportsCsv, mountOpenApi]) {
    mount(router, deps);
  }
  if (router.undeclared.length) throw new Error(`No access rule is declared in policies/permissions.ts for ${router.undeclared.join(', ')}`);

  if (svc.config.signinCode === 'email' && !svc.config.smtpUrl) {
    svc.log.warn('SIGNIN_CODE=email without SMTP_URL: sign-in codes wait in the outbox and nobody receives them');
  }

  // Security headers first: every answer carries them, errors and 404s included.
  app.use(securityHeaders(svc.config));
  app.use(noStoreUnder(NO_STORE_PREFIXES));
  app.use(compressJson());
  app.use(errorHandler(svc.log, svc.storageHealth));
  app.use(requestLogger(svc.log, svc.db));
  app.use(jsonBody());
  app.use(limitBodyDepth());
  app.use(authenticate(svc));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  app.use(async (ctx, next) => {
    if (API_PREFIXES.some((p) => ctx.path.startsWith(p))) throw notFound('Not found');
    await next();
  });
  app.use(serveSpa(svc.config.staticDir));
  return { app, router };
}
