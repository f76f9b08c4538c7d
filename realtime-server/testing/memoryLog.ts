import pino from 'pino';

/**
 * A pino logger that keeps every line it writes (JSON text, as it would reach a log file),
 * for tests that read what the server logs: `startTestServer({ log })`.
 */
export function memoryLog(level: pino.LevelWithSilent = 'debug') {
  const lines: string[] = [];
  const log = pino({ level, base: undefined }, { write: (line: string) => { lines.push(line); } });
  return {
    log,
    lines,
    /** Every line parsed. */
    entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown> & { msg?: string; level: number }),
  };
}
