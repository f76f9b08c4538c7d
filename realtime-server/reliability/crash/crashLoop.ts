import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServerProcess, freePort } from '../../testing/serverProcess';
import { type SmtpListener, startSmtpListener } from '../../testing/smtpListener';
import { audit, drainOutbox, retryInDoubt } from './audit';
import { CrashClient } from './client';
import { type CrashFigures, emptyFigures, summaryLine } from './figures';
import { runLoad } from './load';
import { type CrashStep, type Prng, firstStep, nextStep, prng } from './plan';

export type { CrashFigures } from './figures';

export interface CrashOptions {
  cycles: number;
  seed?: number;
  /** Concurrent load workers. */
  workers?: number;
  log?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Everything one loop holds: the file, the SMTP listener, the server process, the client, the figures. */
interface CrashRun {
  opts: CrashOptions;
  rnd: Prng;
  log: (line: string) => void;
  dir: string;
  dbPath: string;
  smtp: SmtpListener;
  server: ServerProcess;
  client: CrashClient;
  figures: CrashFigures;
}

async function openRun(opts: CrashOptions): Promise<CrashRun> {
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-crash-'));
  const dbPath = path.join(dir, 'crash.sqlite');
  const smtp = await startSmtpListener({ sendersMayDie: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = new ServerProcess({
    DATABASE_URL: dbPath, PORT: String(port), HOST: '127.0.0.1', SEED: 'demo', DEMO_HISTORY_DAYS: '0', SMTP_URL: smtp.url, GEOCODER_URL: 'off',
    PUBLIC_URL: base, STATIC_DIR: path.join(dir, 'web'), LOG_LEVEL: 'warn', LINK_LIMIT_PER_MIN: '1000000', DRAIN_SECONDS: '0',
  }, base);
  const figures = emptyFigures(seed);
  return {
    opts, rnd: prng(seed), log: opts.log ?? ((line: string) => console.log(line)),
    dir, dbPath, smtp, server, client: new CrashClient(base, figures), figures,
  };
}

/** Checks everything after a restart and logs what is wrong. */
async function auditNow(run: CrashRun, final: boolean) {
  const problems = await audit(run.dbPath, run.client, run.smtp.received, run.figures, final);
  if (problems.length) run.log(`[crash] cycle ${run.figures.cycles}: ${problems.length} problem(s):\n  ${problems.slice(0, 20).join('\n  ')}`);
}

/** How each step is performed. */
const perform: { [K in CrashStep['kind']]: (run: CrashRun, step: Extract<CrashStep, { kind: K }>) => Promise<void> } = {
  boot(run, step) {
    run.figures.cycles = step.cycle;
    run.server.start();
    return Promise.resolve();
  },
  async killWhileBooting(run, step) {
    await sleep(step.afterMs);
    await run.server.kill9();
    run.figures.kills += 1;
    run.figures.killsDuringStartup += 1;
  },
  async audit(run) {
    await run.server.waitHealthy();
    await run.client.signIn();
    await auditNow(run, false);
    await retryInDoubt(run.dbPath, run.client, run.figures);
  },
  async killUnderLoad(run, step) {
    const stop = { stopped: false };
    const load = runLoad(run.client, run.figures, run.rnd, run.opts.workers ?? 4, stop);
    await sleep(step.afterMs);
    await run.server.kill9();
    stop.stopped = true;
    run.figures.kills += 1;
    run.figures.killsDuringLoad += 1;
    await load;
    const f = run.figures;
    if (step.cycle % 10 === 0 || step.cycle === run.opts.cycles) {
      run.log(`[crash] cycle ${step.cycle}: ${f.acknowledged} writes acknowledged, ${f.verified} verified, ${f.inDoubt} in doubt, ${run.smtp.received.length} mails delivered`);
    }
  },
  async finish(run) {
    run.server.start();
    await run.server.waitHealthy();
    await retryInDoubt(run.dbPath, run.client, run.figures);
    await drainOutbox(run.dbPath, run.log);
    await sleep(300); // a delivery still on the wire lands
    await auditNow(run, true);
    await run.server.stop();
  },
  done: () => Promise.resolve(),
};

/**
 * The crash loop (scripts/crash.ts describes it): the steps of plan.ts, performed one after
 * the other until done; the server is killed and the listener closed whatever happens.
 */
export async function runCrashLoop(opts: CrashOptions): Promise<CrashFigures> {
  const started = Date.now();
  const run = await openRun(opts);
  try {
    run.log(`[crash] ${opts.cycles} cycles, seed ${run.figures.seed}, database ${run.dbPath}`);
    for (let step = firstStep(opts.cycles); step.kind !== 'done'; step = nextStep(step, opts.cycles, run.rnd)) {
      await (perform[step.kind] as (run: CrashRun, step: CrashStep) => Promise<void>)(run, step);
    }
  } finally {
    await run.server.kill9().catch(() => {});
    await run.smtp.close();
    if (!run.figures.violations.length) fs.rmSync(run.dir, { recursive: true, force: true });
    else run.log(`[crash] the database is kept for inspection: ${run.dbPath}`);
  }
  run.figures.seconds = Math.round((Date.now() - started) / 100) / 10;
  run.log(summaryLine(run.figures));
  return run.figures;
}
