import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from '../config';

/**
 * The origin of the map tiles, as a CSP source: `TILE_URL` is a Leaflet template such as
 * `https://tile.openstreetmap.org/{z}/{x}/{y}.png` or `https://{s}.tile.example.com/{z}/{x}/{y}.png`
 * (a `{s}` subdomain becomes a `*.` wildcard). A relative template is covered by 'self'.
 */
export function tileSource(tileUrl: string): string | undefined {
  const marked = tileUrl.replace(/\{s\}/g, 'subdomain-wildcard').replace(/\{[^}]*\}/g, '0');
  let url: URL;
  try {
    url = new URL(marked);
  } catch {
    return undefined; // relative: same origin
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return `${url.protocol}//${url.host.replace(/^subdomain-wildcard\./, '*.')}`;
}

/** `http://a:1` → `ws://a:1`, `https://a` → `wss://a`. */
const wsOf = (origin: string) => origin.replace(/^http/, 'ws');
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The WebSocket sources of the page's own origin (the Host it was asked for), for browsers whose 'self' does not cover ws:. */
const sameOriginSockets = (req: IncomingMessage) => {
  const host = req.headers.host ?? '';
  return HOST.test(host) ? `ws://${host} wss://${host}` : "'self'";
};

/**
 * The security headers of every response, as a Node (req, res) handler: the CSP (self, the
 * tile host for images, data:/blob: images, same-origin sockets, inline styles for MUI's
 * emotion, no framing, no plugins, base self), nosniff, no referrer, X-Frame-Options DENY,
 * and helmet's other defaults (COOP/CORP same-origin, HSTS over HTTPS, …).
 */
export function securityHeaderHandler(config: Pick<Config, 'tileUrl' | 'allowedOrigins'>) {
  const tiles = tileSource(config.tileUrl);
  const allowedSockets = config.allowedOrigins.filter((o) => /^https?:\/\/[^\s;,]+$/.test(o)).map(wsOf);
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", sameOriginSockets, ...new Set(allowedSockets)],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
}

/**
 * The same headers on the responses Socket.IO's engine writes itself (polling, refused
 * handshakes), which never reach Koa. Call after Socket.IO is attached to the server.
 */
export function secureEngineResponses(httpServer: HttpServer, config: Pick<Config, 'tileUrl' | 'allowedOrigins'>) {
  const handler = securityHeaderHandler(config);
  httpServer.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/socket.io/')) handler(req, res, () => {});
  });
}

/**
 * Socket.IO handshakes: a browser always sends `Origin`; it must be one of ALLOWED_ORIGINS or
 * the server's own (the origin's host is the Host the request was sent to: a page served by
 * this server, whatever name or address it was opened under). A request without `Origin` is
 * not a browser's (Node clients, the simulator, tests) and is let through; the handshake's
 * token check still applies to everyone.
 */
export function socketOriginAllowed(req: Pick<IncomingMessage, 'headers'>, allowedOrigins: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (allowedOrigins.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!req.headers.host && url.host === req.headers.host.toLowerCase();
  } catch {
    return false; // `null` (sandboxed frames, file://) or garbage
  }
}
