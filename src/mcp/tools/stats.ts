import type { StatsService } from '../../modules/stats/stats.service.js';
import { StatsQuery, StatsResponse, WorktimeBody, WorktimeResponse } from '../../modules/stats/stats.schemas.js';
import { ADDITIVE, READ_ONLY, type ToolRegistry } from '../tool.js';

/** The services these tools call. */
export interface StatsToolDeps {
  stats: StatsService;
}

export function registerStatsTools(t: ToolRegistry, deps: StatsToolDeps): void {
  t.define('log_work_time', {
    creates: true,
    title: 'Record work time',
    description:
      'Record hours worked (a number > 0 and <= 24, e.g. 1.5) with an optional project, description and date (YYYY-MM-DD, default today UTC). ' +
      'Each call adds a new entry, so call it once per block of work. workspace_id (wsp_..., from list_workspaces) logs it in a team workspace; default personal.',
    input: WorktimeBody,
    output: WorktimeResponse,
    annotations: ADDITIVE,
    run: async (args, auth) => ({ success: true as const, log: await deps.stats.recordWorktime(auth, args) }),
  });

  t.define('get_stats', {
    title: 'Usage statistics',
    description:
      'Usage statistics of one workspace (workspace_id, default personal; only its records count): sheets (total, created this month), Spark runs, hours worked (total, this month), ' +
      'sessions saved, and the 10 newest work-time entries. "This month" is the current UTC calendar month.',
    input: StatsQuery,
    output: StatsResponse,
    annotations: READ_ONLY,
    run: async (args, auth) => ({ success: true as const, stats: await deps.stats.get(auth, args.workspace_id) }),
  });
}
