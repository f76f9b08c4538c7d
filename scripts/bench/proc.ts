import fs from 'node:fs';

const CLK_TCK = 100; // Linux USER_HZ
/** CPU seconds (user + system) a process has used, from /proc; undefined once it is gone. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** Resident set size in MB, from /proc. */
export function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's CPU and peak RSS over a phase. */
export class ProcMeter {
  private cpu0 = 0;
  private t0 = 0;
  private peak = 0;
  private timer?: NodeJS.Timeout;
  constructor(private pid: number) {}
  start() {
    this.cpu0 = cpuSeconds(this.pid) ?? 0;
    this.t0 = performance.now();
    this.peak = rssMb(this.pid) ?? 0;
    this.timer = setInterval(() => { this.peak = Math.max(this.peak, rssMb(this.pid) ?? 0); }, 250);
    return this;
  }
  stop() {
    clearInterval(this.timer);
    const cpu = (cpuSeconds(this.pid) ?? this.cpu0) - this.cpu0;
    const wall = (performance.now() - this.t0) / 1000;
    this.peak = Math.max(this.peak, rssMb(this.pid) ?? 0);
    return { cpuSeconds: cpu, wallSeconds: wall, cpuPct: (100 * cpu) / wall, rssMb: rssMb(this.pid) ?? 0, peakRssMb: this.peak };
  }
}
