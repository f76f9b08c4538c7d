import fs from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import { describe, expect, it } from 'vitest';
import { caseCreateSchema } from '../contract';
import { useTestServer } from '../testing/testServer';
import { createApp } from './app';
import { GatedRouter } from './gatedRouter';
import { openApiDocument, openApiPath } from './openapi';

const METRICS_TOKEN = 'metrics-secret-not-in-the-document';
const s = useTestServer({ env: { METRICS_TOKEN } });

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
type Doc = ReturnType<typeof openApiDocument>;
type Op = Record<string, any>;

const fetchDocument = async () => {
  const res = await s.api<Doc>('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  return res.body;
};

/** `METHOD /path/{param}` of every operation in the document. */
const documented = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).filter((m) => HTTP_METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${p}`));

/** The @koa/router the running app has mounted: its dispatch middleware carries the router. */
function mountedRouter(): Router {
  const routers = s.app.middleware.map((m) => (m as { router?: Router }).router).filter((r): r is Router => r !== undefined);
  expect(routers).toHaveLength(1);
  return routers[0];
}

function* operations(doc: Doc): Generator<[string, string, Op]> {
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(item)) if (HTTP_METHODS.includes(m)) yield [p, m, op];
  }
}

describe('GET /api/openapi.json', () => {
  it('lists every route the running server has mounted, and no other', async () => {
    const mounted = new Set<string>();
    for (const layer of mountedRouter().stack) {
      for (const method of layer.methods) if (method !== 'HEAD') mounted.add(`${method} ${openApiPath(String(layer.path)).path}`);
    }
    // The server's whole API, not a handful: a walk that found nothing would agree with an empty document.
    expect(mounted.size).toBeGreaterThan(40);
    expect(documented(await fetchDocument()).sort()).toEqual([...mounted].sort());
  });

  it('is an OpenAPI 3.1 document: version, info, and every operation with responses, its path parameters and known security schemes', async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof doc.info.title).toBe('string');
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const [p, item] of Object.entries(doc.paths)) {
      expect(p).toMatch(/^\//);
      expect({ p, operations: Object.keys(item).filter((m) => HTTP_METHODS.includes(m)).length > 0 }).toEqual({ p, operations: true });
    }
    for (const [p, m, op] of operations(doc)) {
      const where = `${m} ${p}`;
      const statuses = Object.keys(op.responses);
      expect({ where, statuses: statuses.length > 0 && statuses.every((k) => k === 'default' || /^[1-5]\d\d$/.test(k)) }).toEqual({ where, statuses: true });
      for (const r of Object.values<Op>(op.responses)) expect({ where, described: typeof (r.description ?? r.$ref) === 'string' }).toEqual({ where, described: true });
      const templated = [...p.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]);
      const pathParams = (op.parameters as Op[]).filter((x) => x.in === 'path');
      expect({ where, params: pathParams.map((x) => x.name) }).toEqual({ where, params: templated });
      expect({ where, required: pathParams.every((x) => x.required === true) }).toEqual({ where, required: true });
      for (const requirement of op.security as Record<string, unknown>[]) for (const name of Object.keys(requirement)) expect(schemes).toContain(name);
      expect({ where, summary: typeof op.summary === 'string' && op.summary.length > 0 }).toEqual({ where, summary: true });
    }
    // Every $ref points at something in the document (a schema's own $defs would not resolve from here).
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((x) => x[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\//);
      const target = ref.slice(2).split('/').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], doc);
      expect({ ref, resolves: target !== undefined }).toEqual({ ref, resolves: true });
    }
  });

  it('declares, for every route, what it does; its body and query from the contract schemas it validates with; and who may call it', async () => {
    const { router } = createApp(s.ctx);
    const undocumented = router.stack.flatMap((l) => l.methods.filter((m) => m !== 'HEAD' && !router.docOf(m, String(l.path))).map((m) => `${m} ${String(l.path)}`));
    expect(undocumented).toEqual([]);

    const doc = await fetchDocument();
    const op = (p: string, m: string) => (doc.paths as Record<string, Record<string, Op>>)[p][m];
    const created = op('/api/cases', 'post');
    expect(Object.keys(created.requestBody.content['application/json'].schema.properties).sort()).toEqual(Object.keys(caseCreateSchema.in.shape).sort());
    expect(Object.keys(created.responses)).toContain('201');
    expect(created.parameters.map((x: Op) => `${x.in}:${x.name}`)).toEqual(['header:idempotency-key']);
    expect(op('/api/cases/{id}', 'put').parameters.map((x: Op) => `${x.in}:${x.name}`)).toEqual(['path:id']);
    expect(op('/api/reports/demand', 'get').parameters.map((x: Op) => x.name)).toEqual(['from', 'to', 'tz']);
    // Two forms of query (a point, or a call): neither form's parameters are required of every request.
    expect(op('/api/dispatch/suggestions', 'get').parameters.map((x: Op) => [x.name, x.required])).toEqual([['latitude', false], ['longitude', false], ['priority', false], ['case_id', false]]);
    expect(op('/api/geocode/search', 'get').parameters.map((x: Op) => [x.name, x.required])).toEqual([['q', true]]);
    expect(op('/api/reports/assignments.csv', 'get').responses['200'].content).toHaveProperty(['text/csv']);

    expect(op('/api/cases/{id}', 'delete')['x-access']).toEqual({ who: 'admin', principals: ['admin'], permission: 'case.delete' });
    expect(op('/api/cases', 'get')['x-access']).toMatchObject({ who: 'staff (operator, admin)', principals: ['operator', 'admin'] });
    expect(op('/api/ambulances/{id}/position', 'post').security).toEqual([{ session: [] }, { linkToken: [] }]);
    expect(op('/api/track/{ambulanceId}', 'get')['x-access']).toEqual({ who: 'a viewer link (?t=) or a driver link (?t=)', principals: ['viewer', 'driver'] });
    expect(op('/api/metrics', 'get').security).toEqual([{ session: [] }, { metricsToken: [] }]);
    for (const p of ['/api/health', '/api/openapi.json']) expect({ p, security: op(p, 'get').security, who: op(p, 'get')['x-access'].who }).toEqual({ p, security: [], who: 'public (no session)' });
  });

  it('names, as answer shapes, only types the contract exports', async () => {
    const dir = path.join(import.meta.dirname, '../contract');
    const exported = new Set(fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((f) => [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/export (?:type|interface) ([A-Za-z]\w*)/g)].map((x) => x[1])));
    const shapes = [...operations(await fetchDocument())].map(([, , op]) => op.responses[Object.keys(op.responses)[0]]['x-contract-type']).filter((x): x is string => x !== undefined);
    expect(shapes.length).toBeGreaterThan(30);
    for (const shape of shapes) {
      for (const [name] of shape.matchAll(/\b[A-Z]\w*/g)) expect({ shape, name, exported: exported.has(name) }).toEqual({ shape, name, exported: true });
    }
  });

  it("describes a failure's body as the errors middleware answers it", async () => {
    const doc = await fetchDocument();
    const refused = await s.api('GET', '/api/cases');
    expect(refused.status).toBe(401);
    expect(Object.keys(refused.body)).toEqual(doc.components.schemas.Error.required);
    expect(Object.keys(doc.components.schemas.Error.properties as object)).toEqual(['error']);
  });

  it('is public and cacheable, revalidated by its ETag, and holds no secret of the configuration', async () => {
    const res = await s.api('GET', '/api/openapi.json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    // fetch adds `Cache-Control: no-cache` to a conditional request unless it has one, and no-cache asks for the whole answer.
    const again = await s.api('GET', '/api/openapi.json', { headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' } });
    expect({ status: again.status, body: again.body }).toEqual({ status: 304, body: undefined });
    const text = JSON.stringify(res.body);
    for (const secret of [METRICS_TOKEN, s.config.databaseUrl]) expect(text).not.toContain(secret);
  });
});

describe('openApiDocument', () => {
  it('documents what the router holds, including a route that declares nothing (its answer then unknown)', () => {
    const router = new GatedRouter();
    router.get('/api/health', (ctx) => { ctx.body = {}; });
    router.delete('/api/users/:id/signin-limits', { summary: 'Clears' }, (ctx) => { ctx.body = {}; });
    const doc = openApiDocument(router, '1.2.3');
    expect(documented(doc).sort()).toEqual(['DELETE /api/users/{id}/signin-limits', 'GET /api/health']);
    const health = (doc.paths as Record<string, Record<string, Op>>)['/api/health'].get;
    expect({ summary: health.summary, responses: Object.keys(health.responses) }).toEqual({ summary: 'GET /api/health', responses: ['200', 'default'] });
  });
});
