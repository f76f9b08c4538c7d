import { type DispatchSuggestionsResponse, suggestionsQuerySchema } from '../../contract';
import { dispatchSuggestionService } from '../../services/dispatchSuggestions';
import { validate } from '../validate';
import type { Mount } from './types';

/** Which free ambulance would reach a place first (README "How arrival is estimated"). */
export const mountDispatchSuggestions: Mount = (router, { svc }) => {
  router.get('/api/dispatch/suggestions', async (ctx) => {
    const target = validate(suggestionsQuerySchema, ctx.query);
    ctx.body = (await dispatchSuggestionService.suggest(svc, target)) satisfies DispatchSuggestionsResponse;
  });
};
