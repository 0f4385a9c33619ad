import type { Clock } from '../../clock.js';
import { searchTerms } from '../search/substring/search-text.js';
import { AppError, notFound } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { pickFields } from '../../lib/fields.js';
import { bestSnippet } from '../search/substring/list-snippet.js';
import type { AuthContext } from '../../auth/context.js';
import { HANDOVER_TODOS_SCOPE, hasScope } from '../../auth/scopes.js';
import type { SheetsService } from '../sheets/sheets.service.js';
import type { TodosRepo } from '../todos/todos.repo.js';
import { NO_PROJECT, OPEN_STATUSES } from '../todos/todos.service.js';
import { handoverColumns } from './sessions.handover.js';
import type { SessionsRepo } from './sessions.repo.js';
import type { HandoverInput } from './sessions.schemas.js';
import { createSessionWrites, requireSessionWorkspace, toSessionView, type SessionWritten } from './sessions.write.js';
import { type Caller, type RecordAction, type WorkspaceAccess } from '../workspaces/workspaces.access.js';

export const LIST_DEFAULT = 20;
export const LIST_MAX = 100;
export const HANDOVER_FOLDER = 'Handover';

export function createSessionsService(deps: {
  repo: SessionsRepo;
  access: WorkspaceAccess;
  todos: TodosRepo;
  sheets: Pick<SheetsService, 'createIn' | 'get'>;
  outbox: Outbox;
  tx: TxRunner;
  clock: Clock;
  onWritten?: SessionWritten;
}) {
  const { repo, access, todos, sheets, outbox, tx } = deps;

  async function owned(caller: Caller, id: string, action: RecordAction) {
    return access.ownedRow(await repo.findById(id), caller, 'session', id, action);
  }

  // Writes (sessions.write.ts): named here, so every method of the service is listed in this file.
  const writes = createSessionWrites(deps);
  return {
    create: writes.create,
    upsert: writes.upsert,
    update: writes.update,

    async list(caller: Caller, query: { q?: string; project?: string; limit?: number; offset?: number; fields?: string[]; workspace_id?: string }) {
      const workspaceId = await access.workspaceFor(caller, query.workspace_id, 'records.read');
      const terms = searchTerms(query.q);
      const { rows, total } = await repo.list({
        workspaceId,
        terms,
        project: query.project,
        limit: Math.min(query.limit ?? LIST_DEFAULT, LIST_MAX),
        offset: query.offset ?? 0,
      });
      const [handovers, distills] = await Promise.all([repo.newestHandovers(rows.map((r) => r.id)), repo.distills(rows.map((r) => r.id))]);
      const sessions = rows.map((row) => {
        const view = toSessionView(row, handovers.get(row.id) ?? null, distills.get(row.id));
        const item = pickFields(view, query.fields);
        return terms.length ? { ...item, snippet: bestSnippet([view.summary, view.title, view.project, view.tags.join(' ')], terms) } : item;
      });
      return { sessions, total };
    },

    /** `workspace_id`, when given, must be the session's (MCP tools take one on every call). */
    async get(caller: Caller, id: string, opts: { workspace_id?: string } = {}) {
      const row = await owned(caller, id, 'records.read');
      requireSessionWorkspace(row, opts.workspace_id);
      return toSessionView(row, (await repo.newestHandovers([row.id])).get(row.id) ?? null, (await repo.distills([row.id])).get(row.id));
    },

    /**
     * A handover is a sheet built from the session, in the session's workspace; sheet, sheet.created and
     * session.handover commit together. Access is checked before the transaction (see sessions.write.ts).
     */
    async handover(caller: Caller, input: HandoverInput, auth?: AuthContext) {
      const checked = await owned(caller, input.session_id, 'records.write');
      requireSessionWorkspace(checked, input.workspace_id, ": a handover goes into its session's workspace");
      const workspaceId = checked.workspace_id;
      return tx(async (trx) => {
        const session = await repo.findById(input.session_id, trx);
        if (!session) throw notFound('session', input.session_id); // its workspace was deleted meanwhile
        // The todos are another domain's records: shown only to a credential that may read them.
        const openTodos = hasScope(auth?.scopes, HANDOVER_TODOS_SCOPE) ? (await todos.list({ workspaceId, project: session.project ?? NO_PROJECT, statuses: OPEN_STATUSES }, trx)).reverse() : undefined;
        const tags = [...new Set(['handover', ...(JSON.parse(session.tags) as string[])])];
        const sheet = await sheets.createIn(
          trx,
          workspaceId,
          caller.userId,
          {
            title: `Handover: ${session.title}`,
            folder: HANDOVER_FOLDER,
            tags,
            content: handoverColumns({ session, nextSteps: input.next_steps ?? [], notes: input.notes, openTodos }),
          },
          auth,
        );
        await outbox.emit(trx, workspaceId, 'session.handover', { session_id: session.id, handover_id: sheet.id }, caller.userId);
        await repo.insertHandover({ handover_id: sheet.id, workspace_id: workspaceId, user_id: caller.userId, session_id: session.id, project: session.project, created_at: sheet.createdAt }, trx);
        return { handover_id: sheet.id, session_id: session.id, workspace_id: workspaceId, sheet };
      });
    },

    /**
     * The newest handover of a project ('' = sessions without one) in a workspace (default: the caller's
     * personal one, or its key's) whose sheet is still there and not trashed.
     */
    async latestHandover(caller: Caller, project: string, wanted?: string) {
      const workspaceId = await access.workspaceFor(caller, wanted, 'records.read');
      for (const h of await repo.handoverIds(workspaceId, project, 20)) {
        const sheet = await sheets.get(caller, h.handover_id).catch((err: unknown) => {
          if (err instanceof AppError && err.code === 'not_found') return null;
          throw err;
        });
        if (sheet && !sheet.trashedAt) return { handover_id: h.handover_id, session_id: h.session_id, workspace_id: workspaceId, sheet };
      }
      throw new AppError('not_found', project ? `no handover for project ${project}` : 'no handover for sessions without a project');
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
