import type { Db, Executor, TodosTable } from '../../db/types.js';

export function createTodosRepo(db: Db) {
  return {
    findById(id: string, exec: Executor = db) {
      return exec.selectFrom('todos').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findByIds(ids: string[], exec: Executor = db) {
      if (ids.length === 0) return [];
      return exec.selectFrom('todos').selectAll().where('id', 'in', ids).execute();
    },
    list(f: { userId: string; project?: string; statuses?: TodosTable['status'][] }, exec: Executor = db) {
      let q = exec.selectFrom('todos').selectAll().where('user_id', '=', f.userId);
      if (f.project !== undefined) q = q.where('project', '=', f.project);
      if (f.statuses) q = q.where('status', 'in', f.statuses);
      return q.orderBy('id', 'desc').execute();
    },
    async insert(row: TodosTable, exec: Executor) {
      await exec.insertInto('todos').values(row).execute();
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
