import type { Clock } from '../../clock.js';
import type { TodosTable, Trx } from '../../db/types.js';
import { invalid, notFound, versionConflict } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import type { ExpectedVersions } from '../../auth/expected-versions.js';
import { newId } from '../../ids.js';
import { requireInWorkspace, type Caller, type InWorkspace, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import type { TodosRepo } from './todos.repo.js';
import { ATTEMPTS, retried } from './todos.retry.js';
import type { SyncTodoItemInput, SyncTodosInput, TodoView } from './todos.schemas.js';

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
    version: row.version,
    workspace_id: row.workspace_id,
  };
}

/** Who changed a task, and in which session: written with every change (never a change by itself). */
type Stamp = Pick<TodosTable, 'changed_by' | 'session_ref'>;

/** What a sync element can change; a sync that changes none of them keeps the version. */
const FIELDS = ['content', 'status', 'priority', 'active_form'] as const;

export function createTodosService(deps: { repo: TodosRepo; access: WorkspaceAccess; outbox: Outbox; tx: TxRunner; clock: Clock }) {
  const { repo, access, outbox, tx, clock } = deps;

  /**
   * Every id in the batch must name a task of the workspace being synced (`workspaceId`, whose
   * write access the caller already has), or nothing is written: 404 unknown, 403 elsewhere. Checked
   * before the transaction: on SQLite the role lookup cannot run inside one (its one connection is
   * held). A task never changes workspace, so the check still holds for the rows locked later.
   */
  async function checkIds(caller: Caller, workspaceId: string, ids: string[]) {
    const rows = new Map((await repo.findByIds([...new Set(ids)])).map((r) => [r.id, r]));
    for (const id of ids) {
      const row = rows.get(id);
      if (row?.workspace_id === workspaceId) continue;
      await access.ownedRow(row, caller, 'todo', id, 'records.write');
      requireInWorkspace('todo', id, row!.workspace_id, workspaceId, ' being synced');
    }
  }

  /** The checked tasks, locked until the transaction ends; one deleted since the check is a 404. */
  async function lockIds(trx: Trx, ids: string[]) {
    const rows = new Map((await repo.findByIdsLocked([...new Set(ids)], trx)).map((r) => [r.id, r]));
    for (const id of ids) if (!rows.has(id)) throw notFound('todo', id);
    return rows;
  }

  /** A key holder let its key go: the oldest task with that same trimmed content becomes the one syncs match. */
  async function passKeyOn(trx: Trx, from: TodosTable, key: string) {
    const heir = (await repo.keylessLocked({ workspaceId: from.workspace_id, project: from.project }, trx)).find((r) => r.content.trim() === key);
    if (heir) await repo.update(heir.id, { content_key: key }, trx);
  }

  /** Applies one element to a locked task; +1 version only when something changed, which `stamp` then names. */
  async function change(trx: Trx, target: TodosTable, item: SyncTodoItemInput, now: Date, stamp: Stamp): Promise<TodosTable> {
    const next: TodosTable = {
      ...target,
      ...stamp,
      content: item.content,
      status: item.status,
      priority: item.priority ?? target.priority,
      active_form: item.activeForm !== undefined ? item.activeForm : target.active_form,
    };
    if (FIELDS.every((f) => next[f] === target[f])) return target;
    next.version = target.version + 1;
    next.updated_at = now.toISOString();
    const key = item.content.trim();
    const released = target.content_key !== key ? target.content_key : null;
    if (target.content_key !== key) {
      const holder = await repo.findByKeyLocked({ workspaceId: target.workspace_id, project: target.project, key }, trx);
      next.content_key = holder ? null : key;
    }
    const { id: _id, workspace_id: _workspace, user_id: _user, project: _project, created_at: _created, ...patch } = next;
    await repo.update(target.id, patch, trx);
    if (released !== null) await passKeyOn(trx, target, released);
    return next;
  }

  /**
   * The element's task by project + trimmed content, created when there is none. The insert goes
   * through the unique content key, so concurrent syncs of the same element converge on one task.
   */
  async function matchOrCreate(trx: Trx, workspaceId: string, userId: string, project: string, item: SyncTodoItemInput, now: Date, stamp: Stamp) {
    const key = item.content.trim();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const row: TodosTable = {
        id: newId('td', now.getTime()),
        workspace_id: workspaceId,
        user_id: userId,
        content: item.content,
        status: item.status,
        project,
        priority: item.priority ?? 'medium',
        active_form: item.activeForm ?? null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        version: 1,
        content_key: key,
        ...stamp,
      };
      if (await repo.insertUnlessKeyTaken(row, trx)) return { created: true, row, changed: true };
      // Taken: by a committed task (PostgreSQL waited for its transaction), unless it was deleted since.
      const target = await repo.findByKeyLocked({ workspaceId, project, key }, trx);
      if (target) {
        const row = await change(trx, target, item, now, stamp);
        return { created: false, row, changed: row !== target };
      }
    }
    throw new Error(`todo content key kept changing under sync (workspace ${workspaceId})`);
  }

  return {
    async list(caller: Caller, query: { status?: TodosTable['status']; project?: string; workspace_id?: string }) {
      const workspaceId = await access.workspaceFor(caller, query.workspace_id, 'records.read');
      const rows = await repo.list({ workspaceId, project: query.project, statuses: query.status ? [query.status] : undefined });
      return rows.map(toTodoView);
    },

    /**
     * Bulk sync (decisions.md): an element with id updates that task; otherwise it matches the
     * oldest task with the same project and trimmed content (the holder of its content key);
     * otherwise it creates one. Tasks not in the list are left alone. Runs in one transaction
     * holding the tasks it touches, so any failure changes nothing and concurrent syncs converge.
     */
    async sync(caller: Caller, input: SyncTodosInput) {
      const project = input.project ?? NO_PROJECT;
      if (input.todos.some((t) => t.expected_version !== undefined && !t.id)) {
        throw invalid('expected_version is only accepted on an element with id (the task it checks)');
      }
      const workspaceId = await access.workspaceFor(caller, input.workspace_id, 'records.write');
      const stamp: Stamp = { changed_by: caller.userId, session_ref: input.session_ref ?? null };
      const ids = input.todos.flatMap((t) => (t.id ? [t.id] : []));
      await checkIds(caller, workspaceId, ids);
      return retried(() =>
        tx(async (trx) => {
          const byId = await lockIds(trx, ids);
          let created = 0;
          let updated = 0;
          const createdIds = new Set<string>();
          const changedIds = new Set<string>();
          for (const item of input.todos) {
            const now = clock.now();
            let row: TodosTable;
            if (item.id) {
              const target = byId.get(item.id)!;
              if (item.expected_version !== undefined && item.expected_version !== target.version) {
                throw versionConflict('todo', target.id, target.version);
              }
              row = await change(trx, target, item, now, stamp);
              if (row !== target) changedIds.add(row.id);
              updated++;
            } else {
              const out = await matchOrCreate(trx, workspaceId, caller.userId, project, item, now, stamp);
              row = out.row;
              if (out.created) created++;
              else updated++;
              if (out.created) createdIds.add(row.id);
              else if (out.changed) changedIds.add(row.id);
            }
            if (byId.has(row.id)) byId.set(row.id, row);
          }
          // Only when a task was created or changed: a sync that repeats the board says nothing.
          if (createdIds.size + changedIds.size > 0) {
            const changedOnly = [...changedIds].filter((id) => !createdIds.has(id));
            const data = { project, created: createdIds.size, updated: changedOnly.length, todo_ids: [...createdIds, ...changedOnly] };
            await outbox.emit(trx, workspaceId, 'todos.synced', data, caller.userId);
          }
          const todos = (await repo.list({ workspaceId, project }, trx)).map(toTodoView);
          return { created, updated, todos };
        }),
      );
    },

    async remove(caller: Caller, id: string, expected?: ExpectedVersions, opts: InWorkspace = {}) {
      await access.ownedRow(await repo.findById(id), caller, 'todo', id, 'records.write', opts.workspace_id);
      return retried(() =>
        tx(async (trx) => {
          const row = await repo.findByIdLocked(id, trx);
          if (!row) throw notFound('todo', id);
          if (expected && !expected.includes(row.version)) throw versionConflict('todo', id, row.version);
          await repo.remove(id, trx);
          if (row.content_key !== null) await passKeyOn(trx, row, row.content_key);
          await outbox.emit(trx, row.workspace_id, 'todo.deleted', { todo_id: id, project: row.project, deleted_at: clock.now().toISOString() }, caller.userId);
          return { id, deleted: true as const };
        }),
      );
    },
  };
}
export type TodosService = ReturnType<typeof createTodosService>;
