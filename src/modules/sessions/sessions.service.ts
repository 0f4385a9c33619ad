import type { Clock } from '../../clock.js';
import { searchTerms } from '../../lib/search-text.js';
import type { Trx } from '../../db/types.js';
import { ownedRow } from '../../db/owned.js';
import { AppError } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { pickFields } from '../../lib/fields.js';
import { bestSnippet } from '../../lib/snippet.js';
import type { AuthContext } from '../../auth/context.js';
import { HANDOVER_TODOS_SCOPE, hasScope } from '../../auth/scopes.js';
import type { SheetsService } from '../sheets/sheets.service.js';
import type { TodosRepo } from '../todos/todos.repo.js';
import { NO_PROJECT, OPEN_STATUSES } from '../todos/todos.service.js';
import { handoverColumns } from './sessions.handover.js';
import type { SessionsRepo } from './sessions.repo.js';
import type { HandoverInput } from './sessions.schemas.js';
import { createSessionWrites, toSessionView } from './sessions.write.js';

export const LIST_DEFAULT = 20;
export const LIST_MAX = 100;
export const HANDOVER_FOLDER = 'Handover';

export function createSessionsService(deps: {
  repo: SessionsRepo;
  todos: TodosRepo;
  sheets: Pick<SheetsService, 'createIn' | 'get'>;
  outbox: Outbox;
  tx: TxRunner;
  clock: Clock;
}) {
  const { repo, todos, sheets, outbox, tx } = deps;

  async function owned(userId: string, id: string, exec?: Trx) {
    return ownedRow(await repo.findById(id, exec), userId, 'session', id);
  }

  return {
    ...createSessionWrites(deps),

    async list(userId: string, query: { q?: string; project?: string; limit?: number; offset?: number; fields?: string[] }) {
      const terms = searchTerms(query.q);
      const { rows, total } = await repo.list({
        userId,
        terms,
        project: query.project,
        limit: Math.min(query.limit ?? LIST_DEFAULT, LIST_MAX),
        offset: query.offset ?? 0,
      });
      const sessions = rows.map((row) => {
        const view = toSessionView(row);
        const item = pickFields(view, query.fields);
        return terms.length ? { ...item, snippet: bestSnippet([view.summary, view.title, view.project, view.tags.join(' ')], terms) } : item;
      });
      return { sessions, total };
    },

    async get(userId: string, id: string) {
      return toSessionView(await owned(userId, id));
    },

    /** A handover is a sheet built from the session; sheet, sheet.created and session.handover commit together. */
    handover(userId: string, input: HandoverInput, auth?: AuthContext) {
      return tx(async (trx) => {
        const session = await owned(userId, input.session_id, trx);
        // The todos are another domain's records: shown only to a credential that may read them.
        const openTodos = hasScope(auth?.scopes, HANDOVER_TODOS_SCOPE)
          ? (await todos.list({ userId, project: session.project ?? NO_PROJECT, statuses: OPEN_STATUSES }, trx)).reverse()
          : undefined;
        const tags = [...new Set(['handover', ...(JSON.parse(session.tags) as string[])])];
        const sheet = await sheets.createIn(trx, userId, {
          title: `Handover: ${session.title}`,
          folder: HANDOVER_FOLDER,
          tags,
          content: handoverColumns({ session, nextSteps: input.next_steps ?? [], notes: input.notes, openTodos }),
        }, auth);
        await outbox.emit(trx, userId, 'session.handover', { session_id: session.id, handover_id: sheet.id });
        await repo.insertHandover({ handover_id: sheet.id, user_id: userId, session_id: session.id, project: session.project, created_at: sheet.createdAt }, trx);
        return { handover_id: sheet.id, session_id: session.id, sheet };
      });
    },

    /** The newest handover of a project ('' = sessions without one) whose sheet is still there and not trashed. */
    async latestHandover(userId: string, project: string) {
      for (const h of await repo.handoverIds(userId, project, 20)) {
        const sheet = await sheets.get(userId, h.handover_id).catch((err: unknown) => {
          if (err instanceof AppError && err.code === 'not_found') return null;
          throw err;
        });
        if (sheet && !sheet.trashedAt) return { handover_id: h.handover_id, session_id: h.session_id, sheet };
      }
      throw new AppError('not_found', project ? `no handover for project ${project}` : 'no handover for sessions without a project');
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
