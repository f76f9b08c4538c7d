import http from 'node:http';

/** One keep-alive agent per process: the REST load reuses its connections like a phone's browser. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** `body` is the parsed JSON answer, typed by the caller as the route answers (the raw text when it is not JSON). */
export interface Reply<T = unknown> { status: number; body: T }

/** A JSON request over node:http (keep-alive). */
export function request<T = unknown>(base: string, method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<Reply<T>> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const u = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request({
      agent, hostname: u.hostname, port: u.port, path: u.pathname + u.search, method,
      headers: {
        accept: 'application/json',
        ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try { body = text ? JSON.parse(text) : undefined; } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, body: body as T });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

export async function expectOk<T>(p: Promise<Reply<T>>, what: string, status = 200): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}
