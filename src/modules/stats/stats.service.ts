import type { Clock } from '../../clock.js';
import type { WorkLogsTable } from '../../db/types.js';
import { newId } from '../../ids.js';
import { type Caller, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import type { MonthRange, StatsRepo } from './stats.repo.js';
import type { StatsView, WorkLogView, WorktimeInput } from './stats.schemas.js';

export const RECENT_WORK_LOGS = 10;
export const DAILY_HOURS_DAYS = 56;

/** [from, to) as YYYY-MM-DD: the last `days` UTC days, today included. */
export function lastDays(now: Date, days: number) {
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const from = new Date(to.getTime() - days * 86_400_000);
  return { fromDate: from.toISOString().slice(0, 10), toDate: to.toISOString().slice(0, 10) };
}

/** The current UTC calendar month of `now`, as half-open ranges. */
export function utcMonth(now: Date): MonthRange {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { fromIso: from.toISOString(), toIso: to.toISOString(), fromDate: from.toISOString().slice(0, 10), toDate: to.toISOString().slice(0, 10) };
}

/** Sums of floats drift (0.1 + 0.2); hours are reported to 1/10000 h. */
const roundHours = (h: number) => Math.round(h * 10_000) / 10_000;

export function toWorkLogView(row: WorkLogsTable): WorkLogView {
  const { id, project, description, date } = row;
  return { id, project, hours: Number(row.hours), description, date, createdAt: row.created_at, workspace_id: row.workspace_id };
}

/** Work logs and the figures of GET /stats, per workspace: a work log is a record of the workspace it is logged in. */
export function createStatsService(deps: { repo: StatsRepo; access: WorkspaceAccess; clock: Clock }) {
  const { repo, access, clock } = deps;
  return {
    async recordWorktime(caller: Caller, input: WorktimeInput): Promise<WorkLogView> {
      const workspaceId = await access.workspaceFor(caller, input.workspace_id, 'records.write');
      const now = clock.now();
      const row: WorkLogsTable = {
        id: newId('wl', now.getTime()),
        workspace_id: workspaceId,
        user_id: caller.userId,
        project: input.project ? input.project : null,
        hours: input.hours,
        description: input.description ?? null,
        date: input.date ?? now.toISOString().slice(0, 10),
        created_at: now.toISOString(),
      };
      await repo.insertWorkLog(row);
      return toWorkLogView(row);
    },

    /** Counts only the records of one workspace (default: personal, or the key's workspace). */
    async get(caller: Caller, wanted?: string): Promise<StatsView> {
      const workspaceId = await access.workspaceFor(caller, wanted, 'records.read');
      const now = clock.now();
      const month = utcMonth(now);
      const window = lastDays(now, DAILY_HOURS_DAYS);
      const [sheetsTotal, sheetsMonth, sparksTotal, sparksMonth, hoursTotal, hoursMonth, sessionsTotal, sessionsMonth, recent, daily] = await Promise.all([
        repo.count('sheets', workspaceId),
        repo.count('sheets', workspaceId, month),
        repo.count('spark_runs', workspaceId),
        repo.count('spark_runs', workspaceId, month),
        repo.hours(workspaceId),
        repo.hours(workspaceId, month),
        repo.count('sessions', workspaceId),
        repo.count('sessions', workspaceId, month),
        repo.recentWorkLogs(workspaceId, RECENT_WORK_LOGS),
        repo.dailyHours(workspaceId, window.fromDate, window.toDate),
      ]);
      return {
        workspace_id: workspaceId,
        sheets: { total: sheetsTotal, created_this_month: sheetsMonth },
        sparks: { executed_total: sparksTotal, executed_this_month: sparksMonth },
        worktime: { total_hours: roundHours(hoursTotal), this_month_hours: roundHours(hoursMonth) },
        sessions: { total: sessionsTotal, this_month: sessionsMonth },
        recent_work_logs: recent.map(toWorkLogView),
        daily_hours: daily.map((d) => ({ date: d.date, hours: roundHours(d.hours) })),
      };
    },
  };
}
export type StatsService = ReturnType<typeof createStatsService>;
