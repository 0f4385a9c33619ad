import type { ZApp } from '../../http/types.js';
import { responses } from '../../http/schemas.js';
import { SearchQuery, SearchResponse } from './search.schemas.js';
import type { SearchService } from './search.service.js';

export function registerSearchRoutes(app: ZApp, search: SearchService) {
  app.get('/search', {
    schema: {
      tags: ['Search'],
      operationId: 'search',
      summary: 'Search sheets (handovers included), sessions, solutions, snippets and todos at once, best match first',
      description:
        'Words are ranked (BM25 with the title and error fields weighted), not all required: ask in your own words or paste an error line. ' +
        'Other word forms, identifier parts (jwtVerify, busy_timeout, src/auth/middleware.ts) and Japanese, Chinese and Korean match; ' +
        'newer records rank a little higher, and prefer_project ranks one project first. Each kind needs its read scope ' +
        '(sheets:read, sessions:read, knowledge:read, todos:read): without types, the kinds the credential may read are searched. ' +
        'A record written before the request is found.',
      querystring: SearchQuery,
      response: responses(SearchResponse, 403, 404),
    },
    handler: async (req) => search.search(req.auth, req.query),
  });
}
