/** What a crash loop counted; `violations` is empty when nothing was lost, doubled or broken. */
export interface CrashFigures {
  seed: number;
  cycles: number;
  kills: number;
  killsDuringStartup: number;
  killsDuringLoad: number;
  requests: number;
  acknowledged: number;
  verified: number;
  inDoubt: number;
  inDoubtDispatchesRetried: number;
  inDoubtFoundCommitted: number;
  integrityChecks: number;
  invariantChecks: number;
  mailsQueued: number;
  mailsDelivered: number;
  mailDuplicates: number;
  mailsInterrupted: number;
  seconds: number;
  violations: string[];
}

export const emptyFigures = (seed: number): CrashFigures => ({
  seed, cycles: 0, kills: 0, killsDuringStartup: 0, killsDuringLoad: 0, requests: 0, acknowledged: 0, verified: 0,
  inDoubt: 0, inDoubtDispatchesRetried: 0, inDoubtFoundCommitted: 0, integrityChecks: 0, invariantChecks: 0,
  mailsQueued: 0, mailsDelivered: 0, mailDuplicates: 0, mailsInterrupted: 0, seconds: 0, violations: [],
});

/** The one line a loop ends with. */
export const summaryLine = (f: CrashFigures) =>
  `[crash] ${f.cycles} cycles, ${f.kills} kill -9 (${f.killsDuringLoad} under load, ${f.killsDuringStartup} during startup), ` +
  `${f.requests} requests, ${f.acknowledged} writes acknowledged, ${f.verified} verified after the last restart, ` +
  `${f.inDoubt} in doubt at a kill (${f.inDoubtDispatchesRetried} keyed dispatches retried, ${f.inDoubtFoundCommitted} of them had committed and were replayed), ` +
  `${f.integrityChecks} integrity checks, ${f.invariantChecks} invariant checks, ` +
  `${f.mailsQueued} mails queued, ${f.mailsDelivered} delivered (${f.mailDuplicates} duplicate deliveries, ${f.mailsInterrupted} sends interrupted by a kill), ` +
  `${f.violations.length} violations, ${f.seconds} s, seed ${f.seed}`;
