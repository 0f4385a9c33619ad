import { lockedForUpdate } from '../../db/dialect.js';
import type { Db, Executor, TodosTable } from '../../db/types.js';

export function createTodosRepo(db: Db) {
  return {
    findById(id: string, exec: Executor = db) {
      return exec.selectFrom('todos').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Held until the transaction ends (PostgreSQL row locks; SQLite write transactions hold the database). */
    findByIdLocked(id: string, exec: Executor) {
      return lockedForUpdate(exec, exec.selectFrom('todos').selectAll().where('id', '=', id)).executeTakeFirst();
    },
    async findByIds(ids: string[]) {
      if (ids.length === 0) return [];
      return db.selectFrom('todos').selectAll().where('id', 'in', ids).execute();
    },
    async findByIdsLocked(ids: string[], exec: Executor) {
      if (ids.length === 0) return [];
      // In id order, so two syncs naming the same tasks lock them in the same order.
      return lockedForUpdate(exec, exec.selectFrom('todos').selectAll().where('id', 'in', ids).orderBy('id')).execute();
    },
    /** The task a sync matches by content: the holder of the content key. */
    findByKeyLocked(k: { workspaceId: string; project: string; key: string }, exec: Executor) {
      const q = exec.selectFrom('todos').selectAll().where('workspace_id', '=', k.workspaceId).where('project', '=', k.project).where('content_key', '=', k.key);
      return lockedForUpdate(exec, q).executeTakeFirst();
    },
    /** Tasks whose content duplicates a key holder's; the oldest may inherit the key when the holder lets it go. */
    keylessLocked(k: { workspaceId: string; project: string }, exec: Executor) {
      const q = exec.selectFrom('todos').selectAll().where('workspace_id', '=', k.workspaceId).where('project', '=', k.project).where('content_key', 'is', null).orderBy('id');
      return lockedForUpdate(exec, q).execute();
    },
    list(f: { workspaceId: string; project?: string; statuses?: TodosTable['status'][] }, exec: Executor = db) {
      let q = exec.selectFrom('todos').selectAll().where('workspace_id', '=', f.workspaceId);
      if (f.project !== undefined) q = q.where('project', '=', f.project);
      if (f.statuses) q = q.where('status', 'in', f.statuses);
      return q.orderBy('id', 'desc').execute();
    },
    /**
     * Inserts unless a task of the same user and project already holds the content key (INSERT ... ON
     * CONFLICT DO NOTHING on both dialects). On PostgreSQL a concurrent uncommitted insert of the same key
     * makes this wait for that transaction, so concurrent syncs converge on one task. True when inserted.
     */
    async insertUnlessKeyTaken(row: TodosTable, exec: Executor): Promise<boolean> {
      const inserted = await exec
        .insertInto('todos')
        .values(row)
        .onConflict((oc) => oc.columns(['workspace_id', 'project', 'content_key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted !== undefined;
    },
    async update(id: string, patch: Partial<TodosTable>, exec: Executor) {
      await exec.updateTable('todos').set(patch).where('id', '=', id).execute();
    },
    async remove(id: string, exec: Executor = db) {
      await exec.deleteFrom('todos').where('id', '=', id).execute();
    },
  };
}
export type TodosRepo = ReturnType<typeof createTodosRepo>;
