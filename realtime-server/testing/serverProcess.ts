import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { ROOT, spawnNode } from './spawnNode';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const live = new Set<number>();
let hooked = false;

/** A TCP port nobody listens on right now (the kernel's pick). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitPortFree(port: number) {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (!open) return;
    await sleep(25);
  }
  throw new Error(`port ${port} is still taken after the kill`);
}

export interface ServerProcessOptions {
  /** The checkout to run (default this one): the bench measures another commit with it. */
  root?: string;
  /** CPU list for taskset, e.g. "0". */
  cpus?: string;
  /** Node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** How many of the last output lines it keeps (default 200). */
  keepLines?: number;
}

/**
 * The real server as a child process (`node --import tsx realtime-server/main.ts` in its own
 * process group, so kill -9 takes it and anything it started), for the crash loop, the bench and
 * the tests that need several nodes. It keeps the last lines of its output. `base` is its URL
 * (PORT in `env` must match).
 */
export class ServerProcess {
  child?: ChildProcess;
  exited?: Promise<void>;
  output: string[] = [];
  readonly port: number;
  constructor(readonly env: Record<string, string>, readonly base: string, readonly opts: ServerProcessOptions = {}) {
    this.port = Number(new URL(base).port);
  }

  /** The server's own process id (node's). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start() {
    if (!hooked) {
      // Should the test process die, its servers do not outlive it.
      hooked = true;
      process.once('exit', () => { for (const pid of live) try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } });
    }
    const root = this.opts.root ?? ROOT;
    const child = spawnNode(path.join(root, 'realtime-server/main.ts'), [], {
      // Not the caller's REDIS_URL: a node joins a cluster only when asked (one with the default prefix would hear other tests' servers).
      cwd: root, env: { REDIS_URL: '', ...this.env }, detached: true, cpus: this.opts.cpus, nodeArgs: this.opts.nodeArgs,
    });
    const keepLines = this.opts.keepLines ?? 200;
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (this.output.length > keepLines) this.output.splice(0, this.output.length - keepLines);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => { live.delete(child.pid!); resolve(); }));
    live.add(child.pid!);
    this.child = child;
    return this;
  }

  get running() {
    return this.child != null && this.child.exitCode == null && this.child.signalCode == null;
  }

  async waitHealthy(timeoutMs = 90_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.child?.exitCode != null) throw new Error(`the server exited (${this.child.exitCode}):\n${this.output.slice(-20).join('\n')}`);
      try {
        const res = await fetch(`${this.base}/api/health`, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) return;
      } catch { /* not up yet */ }
      if (Date.now() > deadline) throw new Error(`the server did not answer /api/health within ${timeoutMs} ms:\n${this.output.slice(-20).join('\n')}`);
      await sleep(50);
    }
  }

  /** kill -9 of the whole process group; resolves once the port is free again. */
  async kill9() {
    const pid = this.child?.pid;
    if (pid && this.running) {
      try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
    }
    await this.exited;
    await waitPortFree(this.port);
  }

  /** SIGTERM to its process group (a graceful stop: set DRAIN_SECONDS=0 in tests), kill -9 after 15 s. */
  async stop() {
    const pid = this.child?.pid;
    if (!pid || !this.running) return;
    try { process.kill(-pid, 'SIGTERM'); } catch { return; }
    // The fallback timer is cleared once the server is gone: left running it kept the caller's process alive 15 s.
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([this.exited!.then(() => true), new Promise<boolean>((r) => { timer = setTimeout(() => r(false), 15_000); })]);
    clearTimeout(timer);
    if (!done) await this.kill9();
  }
}
