import { ApiError } from '../../../api/client';

/** The server's `{ error }` text when it sent one, else the product's fallback wording. */
export function serverErrorOr(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverError ? error.serverError : fallback;
}

/** The product's wording, followed by the server's reason when it gave one. */
export function withServerReason(error: unknown, message: string): string {
  return error instanceof ApiError && error.serverError ? `${message}: ${error.serverError}` : message;
}
