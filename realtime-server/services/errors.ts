/** A refusal the client can act on; the error middleware turns it into `{error}` with its status. */
export class DomainError extends Error {
  /** `retryAfterS`: when to ask again, answered as `Retry-After` (a 429 or 503 the client may retry). */
  constructor(public status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 503, message: string, readonly retryAfterS?: number) {
    super(message);
  }
}

export const badRequest = (m: string) => new DomainError(400, m);
export const unauthorized = (m = 'Authentication required') => new DomainError(401, m);
export const forbidden = (m = 'You are not allowed to do this') => new DomainError(403, m);
export const notFound = (m: string) => new DomainError(404, m);
export const conflict = (m: string) => new DomainError(409, m);
export const gone = (m: string) => new DomainError(410, m);
export const unprocessable = (m: string) => new DomainError(422, m);
