import { DEMO_USERS } from '../../db/seeds/demo';

export interface Credentials { email: string; username: string; phone: string }

/** The seeded staff accounts as the sign-in form takes them: the seed is the one place they are written. */
function credentials(role: 'admin' | 'operator'): Credentials {
  const u = DEMO_USERS.find((x) => x.role === role)!;
  return { email: u.email, username: u.name, phone: u.phone };
}

export const DEMO = { admin: credentials('admin'), operator: credentials('operator') } as const;
