import type { Db, SheetSharesTable } from '../../db/types.js';

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
    /** True when the link existed (and is now gone). */
    async remove(sheetId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('sheet_shares').where('sheet_id', '=', sheetId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
export type SharesRepo = ReturnType<typeof createSharesRepo>;
