import Router, { type RouterMiddleware } from '@koa/router';
import type { z } from 'zod';
import { ruleFor } from '../policies/permissions';
import { gate } from './middleware/auth';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Schema = z.core.$ZodType;

/**
 * What a route declares about itself for the API document (http/openapi.ts), given as the
 * argument after the path. It is documentation only: the handler still validates with
 * `validate(schema, …)`, and declares here the same contract schema it validates with.
 */
export interface RouteDoc {
  /** One line: what the route does. */
  summary: string;
  /** The JSON body's schema, or one per content type for a route that reads several. */
  body?: Schema | Record<string, Schema>;
  /** The query's schema; several when the route answers different queries (each one alternative). */
  query?: Schema | readonly Schema[];
  /**
   * The success answer: its status (200 by default), the contract's TypeScript type that
   * shapes it (by name, checked to exist by http/openapi.test.ts), and its media type.
   */
  ok?: { status?: number; shape?: string; type?: 'application/json' | 'text/csv' | 'text/plain' };
}

/** A registered route as the API document reads it. */
export interface DocumentedRoute { method: Method; path: string; doc?: RouteDoc }

/** Registers a route: its path, optionally what it declares about itself, then its middleware. */
interface Register {
  (path: string, doc: RouteDoc, ...middleware: RouterMiddleware[]): void;
  (path: string, ...middleware: RouterMiddleware[]): void;
}
type Args = (RouteDoc | RouterMiddleware)[];

/**
 * The app's router: every route registered here is gated by its entry in `access`
 * (policies/permissions.ts), looked up once as the route is registered and run before the
 * route's own middleware. A route with no entry is refused (403) and listed in `undeclared`,
 * which `createApp` turns into a failed start. A route may declare a `RouteDoc` after its
 * path; `docOf` answers it for the API document.
 */
export class GatedRouter {
  private readonly router = new Router();
  private readonly docs = new Map<string, RouteDoc>();
  readonly undeclared: string[] = [];

  get: Register = (path: string, ...args: Args) => this.add('GET', path, args);
  post: Register = (path: string, ...args: Args) => this.add('POST', path, args);
  put: Register = (path: string, ...args: Args) => this.add('PUT', path, args);
  delete: Register = (path: string, ...args: Args) => this.add('DELETE', path, args);

  /** The registered routes (a GET also answers HEAD, read as GET by its entry). */
  get stack() {
    return this.router.stack;
  }

  /** What the route registered as `METHOD path` declared about itself, if anything (HEAD reads as GET). */
  docOf(method: string, path: string): RouteDoc | undefined {
    return this.docs.get(`${method === 'HEAD' ? 'GET' : method} ${path}`);
  }

  routes() {
    return this.router.routes();
  }

  allowedMethods(options: Parameters<Router['allowedMethods']>[0]) {
    return this.router.allowedMethods(options);
  }

  private add(method: Method, path: string, args: Args) {
    const [first, ...rest] = args;
    const middleware = typeof first === 'function' ? (args as RouterMiddleware[]) : (rest as RouterMiddleware[]);
    if (first && typeof first !== 'function') this.docs.set(`${method} ${path}`, first);
    const rule = ruleFor(method, path);
    if (!rule) this.undeclared.push(`${method} ${path}`);
    this.router.register(path, [method], [gate(rule), ...middleware]);
  }
}
