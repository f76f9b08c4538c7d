import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');
/** Tokens are stored only as this hash. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** Compares two hex hashes in constant time. */
export const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
