import { z } from 'zod';
import { email } from './common';
import type { Role } from './enums';
import type { UserDto } from './users';

export const signInSchema = z.object({
  email: email(),
  username: z.string().trim().min(1, 'required').max(100),
  phone: z.string().trim().min(1, 'required').max(40)
    .refine((v) => /\d/.test(v), 'must contain digits'),
});
export type SignInInput = z.infer<typeof signInSchema>;

export interface SignInResponse {
  token: string;
  user: { id: number; email: string; role: Role; username: string };
  expiresAt: string;
}

export interface ProfileResponse { user: UserDto }
