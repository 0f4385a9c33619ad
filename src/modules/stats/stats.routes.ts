import type { ZApp } from '../../http/types.js';
import { responses } from '../../http/schemas.js';
import type { StatsService } from './stats.service.js';
import { StatsActionQuery, StatsQuery, StatsResponse, WorktimeBody, WorktimeResponse } from './stats.schemas.js';

export function registerStatsRoutes(app: ZApp, stats: StatsService) {
  const tags = ['Statistics and work time'];
  const ok = true as const;

  app.get('/stats', {
    schema: {
      tags,
      operationId: 'getStats',
      summary: 'Usage statistics of one workspace; "this month" is the current UTC calendar month',
      querystring: StatsQuery,
      response: responses(StatsResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, stats: await stats.get(req.auth, req.query.workspace_id) }),
  });
  app.post('/stats', {
    schema: {
      tags,
      operationId: 'recordWorktime',
      summary: 'Record work time (action=worktime)',
      querystring: StatsActionQuery,
      body: WorktimeBody,
      response: responses(WorktimeResponse, 403, 404, 413, 415),
    },
    handler: async (req) => ({ success: ok, log: await stats.recordWorktime(req.auth, req.body) }),
  });
}
