import type { ZApp } from '../../http/types.js';
import { responses } from '../../http/schemas.js';
import type { StatsService } from './stats.service.js';
import { StatsActionQuery, StatsResponse, WorktimeBody, WorktimeResponse } from './stats.schemas.js';

export function registerStatsRoutes(app: ZApp, stats: StatsService) {
  const tags = ['Statistics and work time'];
  const ok = true as const;

  app.get('/stats', {
    schema: { tags, operationId: 'getStats', summary: 'Usage statistics; "this month" is the current UTC calendar month', response: responses(StatsResponse) },
    handler: async (req) => ({ success: ok, stats: await stats.get(req.auth.userId) }),
  });
  app.post('/stats', {
    schema: {
      tags,
      operationId: 'recordWorktime',
      summary: 'Record work time (action=worktime)',
      querystring: StatsActionQuery,
      body: WorktimeBody,
      response: responses(WorktimeResponse, 413, 415),
    },
    handler: async (req) => ({ success: ok, log: await stats.recordWorktime(req.auth.userId, req.body) }),
  });
}
