import { z } from 'zod';
import type { ErrorBody } from '../contract';
import { type AccessRule, permissions, principalsOf, ruleFor } from '../policies/permissions';
import type { GatedRouter, RouteDoc } from './gatedRouter';
import { IDEMPOTENCY_HEADER, KEYED } from './middleware/idempotency';

/** Every failure's body, as http/middleware/errors.ts answers it. */
export const errorBodySchema = z.object({ error: z.string() }) satisfies z.ZodType<ErrorBody>;

type Schema = z.core.$ZodType;
type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

/** What a client may send (`io: 'input'`): defaults are optional, coercions accept their input; a refinement JSON Schema cannot say is left out. */
function jsonSchema(schema: Schema): JsonSchema {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  // OpenAPI 3.1's schemas are draft 2020-12 already.
  delete out.$schema;
  return out;
}

const isSchema = (x: unknown): x is Schema => typeof x === 'object' && x !== null && '_zod' in x;

/** `/api/cases/:id` → `/api/cases/{id}`, and the names of its parameters. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const templated = path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: templated, params };
}

/** Query parameters from the route's query schema(s): a parameter is required only when every alternative requires it. */
function queryParameters(query: RouteDoc['query']) {
  const alternatives = (query === undefined ? [] : isSchema(query) ? [query] : [...query]).map(jsonSchema);
  const names = [...new Set(alternatives.flatMap((a) => Object.keys((a.properties as JsonSchema | undefined) ?? {})))];
  return names.map((name) => {
    const schemas = alternatives.map((a) => (a.properties as Record<string, JsonSchema> | undefined)?.[name]).filter((s) => s !== undefined);
    const distinct = [...new Map(schemas.map((s) => [JSON.stringify(s), s])).values()];
    const required = alternatives.every((a) => ((a.required as string[] | undefined) ?? []).includes(name));
    return { name, in: 'query', required, schema: distinct.length === 1 ? distinct[0] : { anyOf: distinct } };
  });
}

/** Who may call, in words: public, staff (operator, admin), admin, a driver or viewer link, the metrics scraper. */
function whoMayCall(rule: AccessRule): string {
  if (rule.anyone) return 'public (no session)';
  const roles = rule.permission ? permissions[rule.permission].roles : [];
  const who = [
    ...(roles.length ? [roles.length > 1 ? `staff (${roles.join(', ')})` : roles[0]] : []),
    ...(rule.links ?? []).map((l) => `a ${l} link (?t=)`),
    ...(rule.scraper ? ['the METRICS_TOKEN scraper'] : []),
  ];
  return who.join(' or ');
}

function security(rule: AccessRule) {
  if (rule.anyone) return [];
  return [
    ...(rule.permission ? [{ session: [] }] : []),
    ...(rule.links ? [{ linkToken: [] }] : []),
    ...(rule.scraper ? [{ metricsToken: [] }] : []),
  ];
}

const errorRef = { $ref: '#/components/responses/Error' };

function operation(method: string, path: string, doc: RouteDoc | undefined, params: string[], keyed: boolean): Operation {
  const rule = ruleFor(method, path);
  const body = doc?.body === undefined ? undefined : isSchema(doc.body) ? { 'application/json': doc.body } : doc.body;
  const ok = doc?.ok ?? {};
  const mediaType = ok.type ?? 'application/json';
  const queryAlternatives = doc?.query !== undefined && !isSchema(doc.query) && doc.query.length > 1;
  const responses: Record<string, unknown> = {
    [String(ok.status ?? 200)]: {
      description: ok.shape ? `\`${ok.shape}\` (realtime-server/contract)` : 'Success',
      content: { [mediaType]: mediaType === 'application/json' ? {} : { schema: { type: 'string' } } },
      ...(ok.shape ? { 'x-contract-type': ok.shape } : {}),
    },
  };
  if (body || doc?.query !== undefined) responses['400'] = errorRef;
  if (rule && !rule.anyone) responses['401'] = errorRef;
  if (rule?.permission || rule?.links) responses['403'] = errorRef;
  if (params.length) responses['404'] = errorRef;
  responses.default = errorRef;
  return {
    tags: [path.split('/').filter((s) => s && s !== 'api')[0] ?? 'root'],
    summary: doc?.summary ?? `${method} ${path}`,
    ...(queryAlternatives ? { description: 'The query takes one of several forms (the summary says which); the parameters are those of every form together.' } : {}),
    parameters: [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...queryParameters(doc?.query),
      ...(keyed ? [{
        name: IDEMPOTENCY_HEADER, in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 200 },
        description: "A client's key for this write: a repeat within a day answers the first answer (Idempotent-Replayed: true) and writes nothing",
      }] : []),
    ],
    ...(body ? { requestBody: { required: true, content: Object.fromEntries(Object.entries(body).map(([type, s]) => [type, { schema: jsonSchema(s) }])) } } : {}),
    responses,
    // No rule means the gate refuses every caller (and createApp refuses to start).
    security: rule ? security(rule) : [],
    'x-access': rule ? { who: whoMayCall(rule), principals: principalsOf(rule), ...(rule.permission ? { permission: rule.permission } : {}) } : { who: 'nobody', principals: [] },
  };
}

/**
 * The OpenAPI 3.1 document of every route the router has mounted (its layers, not a list kept
 * beside them): each route's path and method, the schemas it declares (its RouteDoc, the same
 * contract schemas its handler validates with), its success answer, the `{error}` of its
 * failures and who may call it (policies/permissions.ts `access`).
 */
export function openApiDocument(router: GatedRouter, version: string) {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const layer of router.stack) {
    // GatedRouter registers string paths only.
    if (typeof layer.path !== 'string') throw new Error(`A route with a RegExp path cannot be documented: ${String(layer.path)}`);
    const { path, params } = openApiPath(layer.path);
    for (const method of layer.methods) {
      // A GET answers HEAD too; OpenAPI documents the GET.
      if (method === 'HEAD') continue;
      // The route's own middleware (after its gate): idempotency() marks itself.
      const keyed = layer.stack.some((m) => KEYED in m);
      (paths[path] ??= {})[method.toLowerCase()] = operation(method, layer.path, router.docOf(method, layer.path), params, keyed);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lifeline API',
      version,
      description: 'Generated by the server from the routes it mounts and the zod schemas of realtime-server/contract. Every failure answers `{error}`; `x-access` says who may call each route.',
    },
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBodySchema) },
      responses: { Error: { description: 'A failure: `{error}` with a message that may be shown', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
      securitySchemes: {
        session: { type: 'http', scheme: 'bearer', description: "A staff session's token, from POST /api/auth/signin" },
        linkToken: { type: 'apiKey', in: 'query', name: 't', description: "A tracking link's viewer or driver token" },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'The configured METRICS_TOKEN (a Prometheus scraper)' },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
