import { z } from 'zod';
import { MAX_ID } from '../contract/common';
import { badRequest, notFound } from '../services/errors';

/**
 * Parses input with a contract schema (zod, or zod/mini for the few the browser shares); a
 * failure is a 400 naming the field and nothing is written.
 */
export function validate<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const result = z.safeParse(schema, input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.join('.');
  const message = issue.code === 'invalid_type' && issue.message.includes('received undefined') ? 'required' : issue.message;
  throw badRequest(field ? `${field}: ${message}` : message);
}

/** A numeric route id; anything else is the resource's "not found". */
export function routeId(raw: string, notFoundMessage: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  // Beyond a database integer (PostgreSQL `integer`) no row can exist: the same "not found".
  if (!Number.isSafeInteger(id) || id <= 0 || id > MAX_ID) throw notFound(notFoundMessage);
  return id;
}
