import { clearSession, getSession } from '../auth/session';
import { noteServerDate } from './serverClock';

/** A non-OK answer. `serverError` is the server's `{ error }` text when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly serverError: string | undefined;

  constructor(status: number, serverError: string | undefined) {
    super(serverError ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverError = serverError;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiFetchOptions {
  method?: HttpMethod;
  body?: unknown;
  /** Send the session's bearer token (default true). */
  auth?: boolean;
  signal?: AbortSignal;
  /**
   * Sent as `Idempotency-Key`: one per form submission (e.g. `crypto.randomUUID()`), reused
   * for its retries, so a retry after a lost answer replays the first answer instead of writing twice.
   */
  idempotencyKey?: string;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorText(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'error' in body) {
    const { error } = body;
    if (typeof error === 'string' && error) return error;
  }
  return undefined;
}

/**
 * Calls the product's backend with JSON and, unless `auth: false`, the bearer token.
 * Non-OK answers throw ApiError; a network failure throws whatever fetch threw.
 * A 401 on an authenticated call ends the session.
 */
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const { method = 'GET', body, auth = true, signal, idempotencyKey } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  if (auth) {
    const token = getSession()?.token;
    if (token) headers.Authorization = `Bearer ${token}`;
  }

  const sentAt = Date.now();
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  noteServerDate(response.headers?.get('Date') ?? null, sentAt, Date.now());
  const data = await readBody(response);

  if (!response.ok) {
    if (response.status === 401 && auth) clearSession();
    throw new ApiError(response.status, errorText(data));
  }
  return data as T;
}

/**
 * A fresh Idempotency-Key for one form submission: a retry of that submission replays the
 * first answer instead of writing twice. getRandomValues works on plain-http origins too,
 * where crypto.randomUUID does not exist.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
