import type { Db, Executor, SparkRunsTable, UserSparksTable } from '../../db/types.js';

export function createSparksRepo(db: Db) {
  return {
    findById(id: string, exec: Executor = db) {
      return exec.selectFrom('user_sparks').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The account's sparks, newest first. */
    listInWorkspace(workspaceId: string) {
      return db.selectFrom('user_sparks').selectAll().where('workspace_id', '=', workspaceId).orderBy('id', 'desc').execute();
    },
    async countInWorkspace(workspaceId: string, exec: Executor = db): Promise<number> {
      const r = await exec
        .selectFrom('user_sparks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insert(row: UserSparksTable, exec: Executor = db) {
      await exec.insertInto('user_sparks').values(row).execute();
    },
    async update(id: string, patch: Partial<UserSparksTable>, exec: Executor = db) {
      await exec.updateTable('user_sparks').set(patch).where('id', '=', id).execute();
    },
    async remove(id: string, exec: Executor = db) {
      await exec.deleteFrom('user_sparks').where('id', '=', id).execute();
    },
    /** One row per successful run; GET /stats counts these. */
    async insertRun(row: SparkRunsTable, exec: Executor) {
      await exec.insertInto('spark_runs').values(row).execute();
    },
  };
}
export type SparksRepo = ReturnType<typeof createSparksRepo>;
