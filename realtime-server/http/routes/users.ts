import { z } from 'zod';
import { type SigninLimitsDto, type SignOutEverywhereResponse, type UserDto, email, userWriteSchema } from '../../contract';
import { signinLimitService } from '../../services/signinLimitService';
import { userService } from '../../services/userService';
import type { AppState } from '../middleware/auth';
import { noStore } from '../middleware/security';
import { keyedWrite } from '../middleware/idempotency';
import { routeId, validate } from '../validate';
import type { Mount } from './types';

const NOT_FOUND = 'Operator not found';
const byEmailQuery = z.object({ email: email() });

export const mountUsers: Mount = (router, { svc }) => {
  router.get('/api/users/operators', { summary: 'Every operator', ok: { shape: '{ operators: UserDto[] }' } }, async (ctx) => {
    ctx.body = { operators: await userService.listOperators(svc) };
  });
  router.get('/api/users/by-email', { summary: "A staff account's id by its e-mail address (404 when there is none)", query: byEmailQuery, ok: { shape: '{ id: number }' } }, async (ctx) => {
    const { email: address } = validate(byEmailQuery, ctx.query);
    ctx.body = { id: await userService.idByEmail(svc, address) };
  });
  router.post('/api/users', { summary: 'Adds an operator', body: userWriteSchema, ok: { status: 201, shape: '{ user: UserDto }' } }, ...keyedWrite(svc, (u: UserDto) => ({ status: 201, body: { user: u } }), (ctx, writeSvc) =>
    userService.create(writeSvc, validate(userWriteSchema, ctx.request.body))));
  router.put('/api/users/:id', { summary: 'Edits an operator', body: userWriteSchema, ok: { shape: '{ user: UserDto }' } }, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = { user: await userService.update(svc, id, validate(userWriteSchema, ctx.request.body)) };
  });
  router.post('/api/users/:id/signout', { summary: 'Ends every live session of a staff member', ok: { shape: 'SignOutEverywhereResponse' } }, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    const revoked = await userService.signOutEverywhere(svc, id, (ctx.state as AppState).principal!.user);
    ctx.body = { success: true, revoked } satisfies SignOutEverywhereResponse;
  });
  router.get('/api/users/:id/signin-limits', { summary: "The account's sign-in counts (code mails, failures)", ok: { shape: 'SigninLimitsDto' } }, noStore, async (ctx) => {
    ctx.body = (await signinLimitService.read(svc, routeId(ctx.params.id, NOT_FOUND))) satisfies SigninLimitsDto;
  });
  router.delete('/api/users/:id/signin-limits', { summary: "Clears the account's sign-in counts", ok: { shape: 'SigninLimitsDto' } }, noStore, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = (await signinLimitService.clear(svc, id, (ctx.state as AppState).principal!.user)) satisfies SigninLimitsDto;
  });
  router.delete('/api/users/:id', { summary: 'Deletes an operator', ok: { shape: '{ success: true; id: number }' } }, async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    await userService.remove(svc, id);
    ctx.body = { success: true, id };
  });
};
