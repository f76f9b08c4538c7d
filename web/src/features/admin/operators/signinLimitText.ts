import type { SigninLimitsDto } from '../../../api/contract';

/**
 * The line the Edit Operator dialog shows about an account's sign-in counts: limited (strangers
 * spent its code mails) until a clock time in the admin's own zone, or not.
 */
export function signinLimitText(limits: Pick<SigninLimitsDto, 'limitedUntil'>, locale?: string): string {
  if (!limits.limitedUntil) return 'Sign-in not limited';
  const until = new Date(limits.limitedUntil).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  return `Sign-in limited until ${until}`;
}
