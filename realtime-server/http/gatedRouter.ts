import Router, { type RouterMiddleware } from '@koa/router';
import { ruleFor } from '../policies/permissions';
import { gate } from './middleware/auth';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The app's router: every route registered here is gated by its entry in `access`
 * (policies/permissions.ts), looked up once as the route is registered and run before the
 * route's own middleware. A route with no entry is refused (403) and listed in `undeclared`,
 * which `createApp` turns into a failed start.
 */
export class GatedRouter {
  private readonly router = new Router();
  readonly undeclared: string[] = [];

  get = (path: string, ...middleware: RouterMiddleware[]) => this.add('GET', path, middleware);
  post = (path: string, ...middleware: RouterMiddleware[]) => this.add('POST', path, middleware);
  put = (path: string, ...middleware: RouterMiddleware[]) => this.add('PUT', path, middleware);
  delete = (path: string, ...middleware: RouterMiddleware[]) => this.add('DELETE', path, middleware);

  /** The registered routes (a GET also answers HEAD, read as GET by its entry). */
  get stack() {
    return this.router.stack;
  }

  routes() {
    return this.router.routes();
  }

  allowedMethods(options: Parameters<Router['allowedMethods']>[0]) {
    return this.router.allowedMethods(options);
  }

  private add(method: Method, path: string, middleware: RouterMiddleware[]) {
    const rule = ruleFor(method, path);
    if (!rule) this.undeclared.push(`${method} ${path}`);
    this.router.register(path, [method], [gate(rule), ...middleware]);
  }
}
