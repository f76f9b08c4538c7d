import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Off unless markBackgroundWork() turned it on: an AsyncLocalStorage that has run once installs
 * promise hooks for the whole process, and every await then pays for them (3 % of a busy
 * server's sampled CPU in the bench's profile, BENCHMARKS.md). Only the tests that count a
 * request's statements need the mark.
 */
let running: AsyncLocalStorage<string> | undefined;

/** Turns the mark on, for a process whose tests tell a request's statements from a job's (testing/statements.ts). */
export const markBackgroundWork = () => { running ??= new AsyncLocalStorage<string>(); };

/**
 * Runs a background job's pass (the outbox worker, retention), marked with the job's name when the
 * mark is on, so that the database's statements it runs can be told from a request's. The mark
 * follows the pass through every await.
 */
export const asBackground = <T>(job: string, pass: () => Promise<T>): Promise<T> => (running ? running.run(job, pass) : pass());

/** The background job whose work is running now, or undefined within a request (always undefined while the mark is off). */
export const backgroundJob = (): string | undefined => running?.getStore();
