import { AsyncLocalStorage } from 'node:async_hooks';

const running = new AsyncLocalStorage<string>();

/**
 * Runs a background job's pass (the outbox worker, retention) marked with the job's name, so that
 * what it does can be told from a request's work wherever both meet: the database's statement
 * events, a log line. The mark follows the pass through every await.
 */
export const asBackground = <T>(job: string, pass: () => Promise<T>): Promise<T> => running.run(job, pass);

/** The background job whose work is running now, or undefined within a request. */
export const backgroundJob = (): string | undefined => running.getStore();
