import type { ZApp } from '../../http/types.js';
import { responses } from '../../http/schemas.js';
import type { DistillService } from './distill.service.js';
import { AcceptSuggestionResponse, DismissSuggestionResponse, DistillUsageResponse, ListSuggestionsQuery, ListSuggestionsResponse, SuggestionParams } from './distill.schemas.js';

/** The review queue of suggested knowledge entries, and what distillation cost today (docs/distillation.md). */
export function registerDistillRoutes(app: ZApp, distill: DistillService) {
  const tags = ['Knowledge'];
  const ok = true as const;

  app.get('/knowledge/suggestions', {
    schema: {
      tags,
      operationId: 'listKnowledgeSuggestions',
      summary: 'Knowledge entries (error -> fix) suggested by session distillation, waiting for review in one workspace',
      querystring: ListSuggestionsQuery,
      response: responses(ListSuggestionsResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, suggestions: await distill.listSuggestions(req.auth, req.query) }),
  });
  app.post('/knowledge/suggestions/:id/accept', {
    schema: {
      tags,
      operationId: 'acceptKnowledgeSuggestion',
      summary: "Accept a suggestion: it becomes a solution (tag distilled) in its workspace; id is the new solution's",
      params: SuggestionParams,
      response: responses(AcceptSuggestionResponse, 403, 404, 409),
    },
    handler: async (req) => ({ success: ok, ...(await distill.accept(req.auth, req.params.id)) }),
  });
  app.delete('/knowledge/suggestions/:id', {
    schema: {
      tags,
      operationId: 'dismissKnowledgeSuggestion',
      summary: 'Dismiss a suggestion; the same error is not suggested again for that session',
      params: SuggestionParams,
      response: responses(DismissSuggestionResponse, 403, 404, 409),
    },
    handler: async (req) => ({ success: ok, ...(await distill.dismiss(req.auth, req.params.id)) }),
  });
  app.get('/distill/usage', {
    schema: {
      tags: ['Statistics and work time'],
      operationId: 'getDistillUsage',
      summary: 'Your session distillation today: tokens in and out, runs, the daily cap, and whether it is on at all',
      response: responses(DistillUsageResponse),
    },
    handler: async (req) => ({ success: ok, usage: await distill.usage(req.auth) }),
  });
}
