import { signInSchema, signInVerifySchema } from '../../contract';
import { presentUser } from '../../presenters/presentUser';
import { authService } from '../../services/authService';
import type { AppState } from '../middleware/auth';
import { signinAttempt } from '../middleware/rateLimit';
import { noStore } from '../middleware/security';
import { validate } from '../validate';
import type { Mount } from './types';

/** A session was issued (not only a code mailed): the account's attempt count starts again. */
const completed = (result: object) => 'token' in result;

export const mountAuth: Mount = (router, { svc }) => {
  router.post('/api/auth/signin', { summary: 'Sign in: a session (200), or with SIGNIN_CODE=email a challenge while the code is mailed (202)', body: signInSchema, ok: { shape: 'SignInResult' } }, noStore, async (ctx) => {
    const input = validate(signInSchema, ctx.request.body);
    const attempt = await signinAttempt(ctx, svc, input.email);
    const result = await attempt.run(() => authService.signIn(svc, input, { underAttack: attempt.underAttack, takeCodeMail: attempt.takeCodeMail }), completed);
    if ('codeRequired' in result) ctx.status = 202;
    ctx.body = result;
  });
  /** The second step with SIGNIN_CODE=email: {challenge, code} → the session. */
  router.post('/api/auth/signin/verify', { summary: 'The second step with SIGNIN_CODE=email: the challenge and the mailed code give the session', body: signInVerifySchema, ok: { shape: 'SignInResponse' } }, noStore, async (ctx) => {
    const input = validate(signInVerifySchema, ctx.request.body);
    const attempt = await signinAttempt(ctx, svc, await authService.challengeAccount(svc, input.challenge), 'code');
    ctx.body = await attempt.run(() => authService.verifyCode(svc, input), completed);
  });
  router.post('/api/auth/signout', { summary: 'Ends this session', ok: { shape: '{ success: true }' } }, async (ctx) => {
    await authService.signOut(svc, (ctx.state as AppState).principal!.session.id);
    ctx.body = { success: true };
  });
  router.get('/api/auth/profile', { summary: 'The signed-in staff member', ok: { shape: 'ProfileResponse' } }, (ctx) => {
    ctx.body = { user: presentUser((ctx.state as AppState).principal!.user) };
  });
};
