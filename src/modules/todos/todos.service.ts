import type { Clock } from '../../clock.js';
import type { TodosTable, Trx } from '../../db/types.js';
import { forbidden, notFound } from '../../errors.js';
import type { TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import type { TodosRepo } from './todos.repo.js';
import type { SyncTodosInput, TodoView } from './todos.schemas.js';

/** Stored and matched as "no project" when a request omits project. */
export const NO_PROJECT = '';
export const OPEN_STATUSES: TodosTable['status'][] = ['pending', 'in_progress'];

export function toTodoView(row: TodosTable): TodoView {
  return {
    id: row.id,
    content: row.content,
    status: row.status,
    project: row.project,
    priority: row.priority,
    activeForm: row.active_form,
    createdAt: Date.parse(row.created_at),
  };
}

export function createTodosService(deps: { repo: TodosRepo; tx: TxRunner; clock: Clock }) {
  const { repo, tx, clock } = deps;

  /** Every id in the batch must exist and be the caller's, or nothing is written. */
  async function resolveIds(trx: Trx, userId: string, ids: string[]) {
    const rows = new Map((await repo.findByIds([...new Set(ids)], trx)).map((r) => [r.id, r]));
    for (const id of ids) {
      const row = rows.get(id);
      if (!row) throw notFound('todo', id);
      if (row.user_id !== userId) throw forbidden('todo', id);
    }
    return rows;
  }

  return {
    async list(userId: string, query: { status?: TodosTable['status']; project?: string }) {
      const rows = await repo.list({ userId, project: query.project, statuses: query.status ? [query.status] : undefined });
      return rows.map(toTodoView);
    },

    /**
     * Bulk sync (decisions.md): an element with id updates that task; otherwise it matches the
     * oldest task with the same project and trimmed content; otherwise it creates one. Tasks not
     * in the list are left alone. Runs in one transaction, so any failure changes nothing.
     */
    sync(userId: string, input: SyncTodosInput) {
      const project = input.project ?? NO_PROJECT;
      return tx(async (trx) => {
        const byId = await resolveIds(trx, userId, input.todos.flatMap((t) => (t.id ? [t.id] : [])));
        const byContent = new Map<string, TodosTable>();
        for (const row of (await repo.list({ userId, project }, trx)).reverse()) {
          if (!byContent.has(row.content.trim())) byContent.set(row.content.trim(), row);
        }
        let created = 0;
        let updated = 0;
        for (const item of input.todos) {
          const now = clock.now();
          const target = item.id ? byId.get(item.id) : byContent.get(item.content);
          if (target) {
            const next: TodosTable = {
              ...target,
              content: item.content,
              status: item.status,
              priority: item.priority ?? target.priority,
              active_form: item.activeForm !== undefined ? item.activeForm : target.active_form,
              updated_at: now.toISOString(),
            };
            await repo.update(target.id, next, trx);
            byId.set(next.id, next);
            if (byContent.get(target.content.trim())?.id === target.id) byContent.delete(target.content.trim());
            if (next.project === project && !byContent.has(next.content)) byContent.set(next.content, next);
            updated++;
          } else {
            const row: TodosTable = {
              id: newId('td', now.getTime()),
              user_id: userId,
              content: item.content,
              status: item.status,
              project,
              priority: item.priority ?? 'medium',
              active_form: item.activeForm ?? null,
              created_at: now.toISOString(),
              updated_at: now.toISOString(),
            };
            await repo.insert(row, trx);
            byContent.set(row.content, row);
            created++;
          }
        }
        const todos = (await repo.list({ userId, project }, trx)).map(toTodoView);
        return { created, updated, todos };
      });
    },

    async remove(userId: string, id: string) {
      const row = await repo.findById(id);
      if (!row) throw notFound('todo', id);
      if (row.user_id !== userId) throw forbidden('todo', id);
      await repo.remove(id);
      return { id, deleted: true as const };
    },
  };
}
export type TodosService = ReturnType<typeof createTodosService>;
