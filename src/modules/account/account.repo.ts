import type { Db } from '../../db/types.js';
import { SHEET_ROW_COLUMNS } from '../sheets/sheets.view.js';

/** Reads one account's records (those of its personal workspace) for its export, in id order and in pages, so a large account never sits in memory whole. */
export function createAccountRepo(db: Db) {
  return {
    user(userId: string) {
      return db.selectFrom('users').select(['id', 'name', 'plan', 'created_at']).where('id', '=', userId).executeTakeFirst();
    },
    sheetsAfter(workspaceId: string, afterId: string, limit: number) {
      return db.selectFrom('sheets').select(SHEET_ROW_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '>', afterId).orderBy('id').limit(limit).execute();
    },
    revisionsOf(sheetIds: string[]) {
      if (sheetIds.length === 0) return Promise.resolve([]);
      return db.selectFrom('sheet_revisions').selectAll().where('sheet_id', 'in', sheetIds).orderBy('sheet_id').orderBy('version').execute();
    },
    sessions: (workspaceId: string) => db.selectFrom('sessions').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    handovers: (workspaceId: string) => db.selectFrom('handovers').selectAll().where('workspace_id', '=', workspaceId).orderBy('handover_id').execute(),
    knowledge: (workspaceId: string) => db.selectFrom('knowledge').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    todos: (workspaceId: string) => db.selectFrom('todos').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    workLogs: (workspaceId: string) => db.selectFrom('work_logs').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    sparks: (workspaceId: string) => db.selectFrom('user_sparks').selectAll().where('workspace_id', '=', workspaceId).orderBy('id').execute(),
    /** An imported handover: its sheet and session were imported first, under new ids. */
    async linkHandover(workspaceId: string, userId: string, handoverId: string, sessionId: string) {
      const session = await db.selectFrom('sessions').select('project').where('id', '=', sessionId).executeTakeFirstOrThrow();
      const sheet = await db.selectFrom('sheets').select('created_at').where('id', '=', handoverId).executeTakeFirstOrThrow();
      await db.insertInto('handovers').values({ handover_id: handoverId, workspace_id: workspaceId, user_id: userId, session_id: sessionId, project: session.project, created_at: sheet.created_at }).execute();
    },
    webhooks: (workspaceId: string) =>
      db.selectFrom('webhooks').select(['id', 'url', 'events', 'name', 'status', 'created_at', 'disabled_at', 'disabled_reason']).where('workspace_id', '=', workspaceId).orderBy('id').execute(),
  };
}
export type AccountRepo = ReturnType<typeof createAccountRepo>;
