import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, useTestServer } from '../testing/testServer';

/**
 * What goes over the wire: the build's precompressed siblings (.br, .gz) for files and the
 * public pages' HTML, chosen by Accept-Encoding, with Vary; JSON answers compressed above
 * 1 KB; the file itself for a client that asks for no encoding. Decoded, every answer is the file.
 */

const s = useTestServer();
const files: Record<string, Buffer> = {};

/** A file of the build with its .br and .gz siblings, as the build writes them (vite.config.ts). */
function writeBuilt(rel: string, content: string | Buffer, siblings = true) {
  const file = path.join(s.config.staticDir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const raw = Buffer.from(content);
  fs.writeFileSync(file, raw);
  if (siblings) {
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(raw));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(raw, { level: 9 }));
  }
  files[rel] = raw;
}

const page = (name: string) => `<!doctype html><html lang="en"><head><title>Lifeline</title></head><body><div id="root"></div><!-- ${name} -->${'<p>shell</p>'.repeat(200)}</body></html>`;

beforeAll(() => {
  writeBuilt('index.html', page('spa'));
  writeBuilt('track.html', page('track'));
  writeBuilt('assets/app-abc123.js', `export const words = ${JSON.stringify(Array.from({ length: 4000 }, (_, i) => `word${i % 97}`))};\n`);
  writeBuilt('assets/tiny-abc123.js', 'export {};\n', false);
});

interface Raw { status: number; headers: http.IncomingHttpHeaders; body: Buffer }

/** A request with exactly these headers (fetch would add its own Accept-Encoding and decode). */
function raw(urlPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(s.url + urlPath, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decoded = (r: Raw) => {
  const enc = r.headers['content-encoding'];
  return enc === 'br' ? zlib.brotliDecompressSync(r.body) : enc === 'gzip' ? zlib.gunzipSync(r.body) : r.body;
};
const varies = (r: Raw) => String(r.headers.vary ?? '').split(',').map((v) => v.trim().toLowerCase()).includes('accept-encoding');

describe('files: the build\'s precompressed siblings', () => {
  for (const [what, url, file] of [['an asset', '/assets/app-abc123.js', 'assets/app-abc123.js'], ['the HTML fallback', '/dashboard/cases', 'index.html'], ['the tracking page', '/track/6?t=x', 'track.html']] as const) {
    it(`${what}: brotli, else gzip, else the file; Vary and the sent length; decoded it is the file`, async () => {
      const br = await raw(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect({ status: br.status, encoding: br.headers['content-encoding'], vary: varies(br) }).toEqual({ status: 200, encoding: 'br', vary: true });
      expect(Number(br.headers['content-length'])).toBe(br.body.length);
      expect(br.body.length).toBeLessThan(files[file].length / 2);
      expect(decoded(br).equals(files[file])).toBe(true);

      const gz = await raw(url, { 'accept-encoding': 'gzip' });
      expect({ encoding: gz.headers['content-encoding'], vary: varies(gz) }).toEqual({ encoding: 'gzip', vary: true });
      expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
      expect(decoded(gz).equals(files[file])).toBe(true);

      const plain = await raw(url);
      expect({ encoding: plain.headers['content-encoding'], vary: varies(plain) }).toEqual({ encoding: undefined, vary: true });
      expect(plain.body.equals(files[file])).toBe(true);
      expect(Number(plain.headers['content-length'])).toBe(files[file].length);

      // Refused explicitly: the file itself.
      const refused = await raw(url, { 'accept-encoding': 'br;q=0, gzip;q=0' });
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.body.equals(files[file])).toBe(true);
    });
  }

  it('keeps the headers of each kind of answer: immutable assets, no-cache HTML, the security headers', async () => {
    const asset = await raw('/assets/app-abc123.js', { 'accept-encoding': 'br' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    const html = await raw('/track/6', { 'accept-encoding': 'br' });
    expect(html.headers['cache-control']).toBe('no-cache');
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const r of [asset, html]) {
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['content-security-policy']).toBeTruthy();
    }
  });

  it('answers HEAD with the headers of the encoded answer and no body', async () => {
    for (const url of ['/assets/app-abc123.js', '/track/6']) {
      const head = await raw(url, { 'accept-encoding': 'br' }, 'HEAD');
      const get = await raw(url, { 'accept-encoding': 'br' });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-encoding']).toBe('br');
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
    }
  });

  it('ignores Range (no partial answers): the whole file, never a slice of the encoded one', async () => {
    const r = await raw('/assets/app-abc123.js', { 'accept-encoding': 'br', range: 'bytes=0-9' });
    expect(r.status).toBe(200);
    expect(decoded(r).equals(files['assets/app-abc123.js'])).toBe(true);
  });

  it('sends a file without siblings as it is (too small to gain)', async () => {
    const r = await raw('/assets/tiny-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.equals(files['assets/tiny-abc123.js'])).toBe(true);
  });
});

describe('JSON answers', () => {
  it('compresses a large one (brotli, or gzip) and keeps no-store; decoded it is the JSON', async () => {
    const token = await s.signIn('operator');
    const headers = { authorization: `Bearer ${token}` };
    const plain = await raw('/api/ambulances', headers);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await raw('/api/ambulances', { ...headers, 'accept-encoding': 'gzip, deflate, br' });
    expect({ encoding: br.headers['content-encoding'], vary: varies(br) }).toEqual({ encoding: 'br', vary: true });
    expect(br.headers['cache-control']).toMatch(/no-store/);
    expect(br.headers['content-type']).toMatch(/application\/json/);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(decoded(br).toString())).toEqual(JSON.parse(plain.body.toString()));

    const gz = await raw('/api/ambulances', { ...headers, 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gz).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('sends a small one as it is', async () => {
    const r = await raw('/api/health', { 'accept-encoding': 'gzip, deflate, br' });
    expect(r.status).toBe(200);
    expect(r.body.length).toBeLessThan(1024);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(r.body.toString())).toBeTruthy();
  });

  it('leaves Socket.IO\'s own answers to Socket.IO', async () => {
    const r = await raw('/socket.io/?EIO=4&transport=polling', { 'accept-encoding': 'br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
  });
});

describe('a client that goes away mid-download', () => {
  it('is one JSON debug line, nothing on stderr or stdout, and the server keeps serving', async () => {
    const { memoryLog } = await import('../testing/memoryLog');
    const mem = memoryLog('debug');
    const own = await startTestServer({ log: mem.log });
    const big = crypto.randomBytes(8 * 1024 * 1024); // incompressible, no siblings: streamed from disk
    fs.mkdirSync(path.join(own.config.staticDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(own.config.staticDir, 'assets', 'big.bin'), big);
    const written: string[] = [];
    const stderr = process.stderr.write.bind(process.stderr);
    const stdout = process.stdout.write.bind(process.stdout);
    const consoleError = console.error;
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => { written.push(String(chunk)); return stderr(chunk, ...(rest as [])); });
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => { written.push(String(chunk)); return stdout(chunk, ...(rest as [])); });
    console.error = (...args: unknown[]) => { written.push(args.map(String).join(' ')); };
    try {
      for (let i = 0; i < 3; i++) {
        await new Promise<void>((resolve, reject) => {
          const req = http.get(`${own.url}/assets/big.bin`, (res) => {
            res.once('data', () => { req.destroy(); resolve(); }); // leaves after the first chunk
          });
          req.on('error', (err) => ((err as { code?: string }).code === 'ECONNRESET' ? resolve() : reject(err)));
        });
      }
      await expect.poll(() => mem.entries().filter((e) => e.msg === 'client went away mid-answer').length, { timeout: 5000 }).toBe(3);
      const health = await fetch(`${own.url}/api/health`);
      expect(health.status).toBe(200);
      const whole = Buffer.from(await (await fetch(`${own.url}/assets/big.bin`)).arrayBuffer());
      expect(whole.equals(big)).toBe(true);
    } finally {
      process.stderr.write = stderr;
      process.stdout.write = stdout;
      console.error = consoleError;
      await own.dispose();
    }
    expect(written.filter((w) => /ERR_STREAM_PREMATURE_CLOSE|Error|at /.test(w))).toEqual([]);
    const line = mem.entries().find((e) => e.msg === 'client went away mid-answer');
    expect(line).toMatchObject({ level: 20, method: 'GET', path: '/assets/big.bin' });
    expect(mem.entries().filter((e) => e.level >= 50)).toEqual([]);
  });
});
