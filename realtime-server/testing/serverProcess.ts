import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const live = new Set<number>();
let hooked = false;

/**
 * The real server as a child process (`tsx realtime-server/main.ts`, its own process group),
 * for tests that need several nodes at once. It keeps the last lines of its output.
 */
export class ServerProcess {
  child?: ChildProcess;
  exited?: Promise<void>;
  output: string[] = [];
  constructor(readonly env: Record<string, string>, readonly base: string) {}

  start() {
    if (!hooked) {
      // Should the test process die, its servers do not outlive it.
      hooked = true;
      process.once('exit', () => { for (const pid of live) try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } });
    }
    const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['realtime-server/main.ts'], {
      cwd: root, env: { ...process.env, ...this.env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (this.output.length > 200) this.output.splice(0, this.output.length - 200);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => { live.delete(child.pid!); resolve(); }));
    live.add(child.pid!);
    this.child = child;
    return this;
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
      await sleep(100);
    }
  }

  /** SIGTERM to its process group (a graceful stop), SIGKILL after 15 s. */
  async stop() {
    const pid = this.child?.pid;
    if (!pid || this.child!.exitCode != null || this.child!.signalCode != null) return;
    try { process.kill(-pid, 'SIGTERM'); } catch { return; }
    const done = await Promise.race([this.exited!.then(() => true), sleep(15_000).then(() => false)]);
    if (!done) {
      try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ }
      await this.exited;
    }
  }
}
