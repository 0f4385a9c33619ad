import type { Db, Executor, ExportsTable } from '../../db/types.js';

export function createExportsRepo(db: Db) {
  return {
    async insert(row: ExportsTable, exec: Executor) {
      await exec.insertInto('exports').values(row).execute();
    },
    findByTokenHash(hash: string) {
      return db.selectFrom('exports').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    },
    async deleteExpired(now: string): Promise<number> {
      const r = await db.deleteFrom('exports').where('expires_at', '<=', now).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type ExportsRepo = ReturnType<typeof createExportsRepo>;
