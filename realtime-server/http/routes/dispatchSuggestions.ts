import { type CaseSuggestionsResponse, type DispatchSuggestionsResponse, caseSuggestionsQuerySchema, suggestionsQuerySchema } from '../../contract';
import { caseSuggestionService } from '../../services/caseSuggestions';
import { dispatchSuggestionService } from '../../services/dispatchSuggestions';
import { validate } from '../validate';
import type { Mount } from './types';

/**
 * Which free ambulance would reach a place first (docs/user-guide.md "How arrival is estimated"): for a point
 * (?latitude=&longitude=), or for a call (?case_id=), with the units that could be diverted to it.
 */
export const mountDispatchSuggestions: Mount = (router, { svc }) => {
  router.get('/api/dispatch/suggestions', { summary: 'Free ambulances ranked by estimated arrival at a point, or for a call (case_id) with the units that could be diverted to it', query: [suggestionsQuerySchema, caseSuggestionsQuerySchema], ok: { shape: 'DispatchSuggestionsResponse | CaseSuggestionsResponse' } }, async (ctx) => {
    if ('case_id' in ctx.query) {
      const { case_id: caseId } = validate(caseSuggestionsQuerySchema, ctx.query);
      ctx.body = (await caseSuggestionService.suggest(svc, caseId)) satisfies CaseSuggestionsResponse;
      return;
    }
    const { priority, ...target } = validate(suggestionsQuerySchema, ctx.query);
    ctx.body = (await dispatchSuggestionService.suggest(svc, target, priority)) satisfies DispatchSuggestionsResponse;
  });
};
