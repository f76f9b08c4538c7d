import { z } from 'zod';
import { email, text } from './common';
import type { Role } from './enums';
import type { UserDto } from './users';

export const signInSchema = z.object({
  email: email(),
  username: text().trim().min(1, 'required').max(100),
  phone: text().trim().min(1, 'required').max(40)
    .refine((v) => /\d/.test(v), 'must contain digits'),
});
export type SignInInput = z.infer<typeof signInSchema>;

export interface SignInResponse {
  token: string;
  user: { id: number; email: string; role: Role; username: string };
  expiresAt: string;
}

/**
 * SIGNIN_CODE=email: after the three fields match, POST /api/auth/signin answers 202 with
 * this and mails a 6-digit code; the browser then sends both to POST /api/auth/signin/verify.
 */
export interface SignInCodeRequired {
  codeRequired: true;
  /** Opaque; names this sign-in attempt (not the account). */
  challenge: string;
}
/** What POST /api/auth/signin answers: a session, or (SIGNIN_CODE=email) a code to enter. */
export type SignInResult = SignInResponse | SignInCodeRequired;

/** Body of POST /api/auth/signin/verify; the code may be typed with spaces (`123 456`). */
export const signInVerifySchema = z.object({
  challenge: text().trim().min(1, 'required').max(200),
  code: z.string().transform((v) => v.replace(/[\s-]/g, '')).pipe(z.string().min(1, 'required').regex(/^\d{6}$/, 'must be the 6 digits from the e-mail')),
});
export type SignInVerifyInput = z.infer<typeof signInVerifySchema>;

export interface ProfileResponse { user: UserDto }
