import { signInSchema } from '../../contract';
import { presentUser } from '../../presenters/presentUser';
import { authService } from '../../services/authService';
import { type AppState, authorize } from '../middleware/auth';
import { validate } from '../validate';
import type { Mount } from './types';

export const mountAuth: Mount = (router, { svc }) => {
  router.post('/api/auth/signin', async (ctx) => {
    ctx.body = await authService.signIn(svc, validate(signInSchema, ctx.request.body));
  });
  router.post('/api/auth/signout', authorize('session.end'), async (ctx) => {
    await authService.signOut(svc, (ctx.state as AppState).principal!.session.id);
    ctx.body = { success: true };
  });
  router.get('/api/auth/profile', authorize('profile.read'), (ctx) => {
    ctx.body = { user: presentUser((ctx.state as AppState).principal!.user) };
  });
};
