import type { Db, Executor, SheetSharesTable } from '../../db/types.js';

export function createSharesRepo(db: Db) {
  return {
    async insert(row: SheetSharesTable) {
      await db.insertInto('sheet_shares').values(row).execute();
    },
    listForSheet(sheetId: string) {
      return db.selectFrom('sheet_shares').selectAll().where('sheet_id', '=', sheetId).orderBy('id').execute();
    },
    findByTokenHash(tokenHash: string) {
      return db.selectFrom('sheet_shares').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    /**
     * Ends for good every link `userId` made to a sheet of workspace `workspaceId`
     * (a member who left or lost the editor role): the rows go, so rejoining brings none back. The count ended.
     */
    async removeMadeBy(workspaceId: string, userId: string, exec: Executor = db): Promise<number> {
      const sheetIds = exec.selectFrom('sheets').select('id').where('workspace_id', '=', workspaceId);
      const r = await exec.deleteFrom('sheet_shares').where('created_by', '=', userId).where('sheet_id', 'in', sheetIds).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** True when the link existed (and is now gone). */
    async remove(sheetId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('sheet_shares').where('sheet_id', '=', sheetId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
export type SharesRepo = ReturnType<typeof createSharesRepo>;
