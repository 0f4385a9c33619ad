import type { Db, Executor, ExportsTable } from '../../db/types.js';

export function createExportsRepo(db: Db) {
  return {
    async insert(row: ExportsTable, exec: Executor) {
      await exec.insertInto('exports').values(row).execute();
    },
    /** Only while its sheet exists: an export of a permanently deleted sheet is gone even before the purge. */
    findByTokenHash(hash: string) {
      return db
        .selectFrom('exports')
        .selectAll()
        .where('token_hash', '=', hash)
        .where(({ exists, selectFrom }) => exists(selectFrom('sheets').select('sheets.id').whereRef('sheets.id', '=', 'exports.sheet_id')))
        .executeTakeFirst();
    },
    listLive(sheetId: string, now: string) {
      return db
        .selectFrom('exports')
        .select(['id', 'workspace_id', 'format', 'filename', 'created_at', 'expires_at'])
        .where('sheet_id', '=', sheetId)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },
    async deleteOne(sheetId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('exports').where('sheet_id', '=', sheetId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    /** Expired exports, and exports whose sheet no longer exists (purged from the trash). */
    async deleteExpired(now: string): Promise<number> {
      const expired = await db.deleteFrom('exports').where('expires_at', '<=', now).executeTakeFirst();
      const orphans = await db
        .deleteFrom('exports')
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('sheets').select('sheets.id').whereRef('sheets.id', '=', 'exports.sheet_id'))))
        .executeTakeFirst();
      return Number(expired.numDeletedRows) + Number(orphans.numDeletedRows);
    },
  };
}
export type ExportsRepo = ReturnType<typeof createExportsRepo>;
