import type { Db, WorkLogsTable } from '../../db/types.js';

/** [from, to) bounds as ISO timestamps (created_at columns) and as YYYY-MM-DD (work-log dates). */
export interface MonthRange {
  fromIso: string;
  toIso: string;
  fromDate: string;
  toDate: string;
}

type Countable = 'sheets' | 'sessions' | 'spark_runs';

export function createStatsRepo(db: Db) {
  async function count(table: Countable, workspaceId: string, since?: MonthRange) {
    let q = db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('workspace_id', '=', workspaceId);
    if (table === 'sheets') q = q.where('trashed_at' as never, 'is', null);
    if (since) q = q.where('created_at', '>=', since.fromIso).where('created_at', '<', since.toIso);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async function hours(workspaceId: string, month?: MonthRange) {
    let q = db
      .selectFrom('work_logs')
      .select((eb) => eb.fn.sum<number | string | null>('hours').as('h'))
      .where('workspace_id', '=', workspaceId);
    if (month) q = q.where('date', '>=', month.fromDate).where('date', '<', month.toDate);
    return Number((await q.executeTakeFirstOrThrow()).h ?? 0);
  }

  return {
    count,
    hours,
    /** Hours per work date in [fromDate, toDate), oldest first; dates are stored as YYYY-MM-DD text on both dialects. */
    async dailyHours(workspaceId: string, fromDate: string, toDate: string) {
      const rows = await db
        .selectFrom('work_logs')
        .select((eb) => ['date', eb.fn.sum<number | string>('hours').as('h')])
        .where('workspace_id', '=', workspaceId)
        .where('date', '>=', fromDate)
        .where('date', '<', toDate)
        .groupBy('date')
        .orderBy('date')
        .execute();
      return rows.map((r) => ({ date: r.date, hours: Number(r.h) }));
    },
    recentWorkLogs(workspaceId: string, limit: number) {
      return db.selectFrom('work_logs').selectAll().where('workspace_id', '=', workspaceId).orderBy('date', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
    async insertWorkLog(row: WorkLogsTable) {
      await db.insertInto('work_logs').values(row).execute();
    },
  };
}
export type StatsRepo = ReturnType<typeof createStatsRepo>;
