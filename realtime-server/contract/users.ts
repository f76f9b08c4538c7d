import { z } from 'zod';
import { email, optionalText, singleLine } from './common';
import type { Role } from './enums';

const shift = z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'must be 1 (Morning), 2 (Evening) or 3 (Night)' });
const gender = z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'must be 0 (Male), 1 (Female) or 2 (Other)' });

/** Body of POST /api/users and PUT /api/users/{id}: only operators are created or edited here. */
export const userWriteSchema = z.object({
  name: singleLine().trim().min(1, 'required').max(100),
  email: email(),
  role: z.literal('operator', { error: 'only operator accounts can be created' }).default('operator'),
  address: optionalText(300),
  location: optionalText(200),
  phone: optionalText(40),
  shift,
  gender,
  /** false: the account is deactivated (no sign-in; on PUT its sessions end at once); true: active; absent: unchanged (active on POST). */
  active: z.boolean().optional(),
});
export type UserWriteInput = z.infer<typeof userWriteSchema>;

export interface UserDto {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  address: string | null;
  role: Role;
  shift: number | null;
  location: string | null;
  gender: number | null;
  active: boolean;
  created_at: string;
  updated_at: string;
  version: number;
}

/** POST /api/users/{id}/signout (admins): how many live sessions of that staff member it ended. */
export interface SignOutEverywhereResponse { success: true; revoked: number }

/**
 * GET and DELETE /api/users/{id}/signin-limits (admins): the account's own sign-in counts, the
 * ones every client adds to, in their 15-minute window. DELETE clears them and answers them cleared.
 */
export interface SigninLimitsDto {
  /** Codes mailed to the account, of at most `codeMailLimit` (SIGNIN_LIMIT_ACCOUNT). */
  codeMails: number;
  codeMailLimit: number;
  /** Failed sign-ins on the account from any clients, of the `failureLimit` that mark it under attack. */
  failures: number;
  failureLimit: number;
  /** While the code mails are spent, when the next may go (a sign-in with no live code to enter is refused until then); else null. */
  limitedUntil: string | null;
}
