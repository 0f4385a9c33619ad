import { sql } from 'kysely';
import type { Db } from '../../db/types.js';

/** Sessions the briefing reads: the newest of a project ('' = sessions saved without one). */
export const RECENT_SESSIONS = 12;

const projectIs = (project: string) => (project === '' ? sql<boolean>`project is null` : sql<boolean>`project = ${project}`);

/** What the briefing reads besides the handover and the open todos; every query is bounded and indexed. */
export function createBriefingRepo(db: Db) {
  return {
    /** The newest sessions of a project in a workspace, newest first (index sessions_user_project). */
    recentSessions(workspaceId: string, project: string, limit = RECENT_SESSIONS) {
      return db
        .selectFrom('sessions')
        .select(['id', 'title', 'outcome', 'files_changed', 'errors', 'tasks_done', 'user_id', 'agent', 'external_id', 'created_at', 'updated_at'])
        .where('workspace_id', '=', workspaceId)
        .where(projectIs(project))
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    /** Sessions named by id or by a client's reference (todos' session_ref). */
    async sessionsByRef(workspaceId: string, refs: string[]) {
      if (refs.length === 0) return [];
      return db
        .selectFrom('sessions')
        .select(['id', 'external_id', 'title'])
        .where('workspace_id', '=', workspaceId)
        .where((eb) => eb.or([eb('id', 'in', refs), eb('external_id', 'in', refs)]))
        .execute();
    },

    /** When a client last captured a session of the project (sessions saved under an external_id). */
    async lastCapture(workspaceId: string, project: string): Promise<string | null> {
      const row = await db
        .selectFrom('sessions')
        .select(sql<string | null>`max(coalesce(updated_at, created_at))`.as('at'))
        .where('workspace_id', '=', workspaceId)
        .where(projectIs(project))
        .where('external_id', 'is not', null)
        .executeTakeFirst();
      return row?.at ?? null;
    },

    async handoverAuthor(handoverId: string): Promise<string | null> {
      const row = await db.selectFrom('handovers').select('user_id').where('handover_id', '=', handoverId).executeTakeFirst();
      return row?.user_id ?? null;
    },

    /** The newest completed todos of a project: what may have done a handover's next steps. */
    completedTodos(workspaceId: string, project: string, limit = 200) {
      return db
        .selectFrom('todos')
        .select(['content', 'updated_at'])
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .where('status', '=', 'completed')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    async names(userIds: string[]): Promise<Map<string, string>> {
      if (userIds.length === 0) return new Map();
      const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', userIds).execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}
export type BriefingRepo = ReturnType<typeof createBriefingRepo>;
