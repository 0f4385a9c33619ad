import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Db, Executor, SheetRevisionsTable, SheetsTable } from '../../db/types.js';

/**
 * Kept earlier versions of sheets. Content is stored deflated (raw DEFLATE of its JSON): sheet HTML
 * compresses several times over, and a revision is read far less often than it is written.
 */
export const packContent = (json: string) => deflateRawSync(Buffer.from(json, 'utf8'));
export const unpackContent = (bytes: Uint8Array) => inflateRawSync(bytes).toString('utf8');

export function createSheetRevisionsRepo(db: Db) {
  return {
    /** Keeps `row` (the state being replaced) and drops what falls past the newest `keep`. */
    async keep(row: SheetsTable, keep: number, exec: Executor) {
      const revision: SheetRevisionsTable = {
        sheet_id: row.id,
        version: row.version,
        title: row.title,
        content: packContent(row.content),
        folder: row.folder,
        tags: row.tags,
        changes: row.last_changes,
        actor: row.last_actor,
        updated_at: row.updated_at,
      };
      await exec.insertInto('sheet_revisions').values(revision).execute();
      // The new current version is row.version + 1; the kept revisions are the `keep` just below it.
      await exec
        .deleteFrom('sheet_revisions')
        .where('sheet_id', '=', row.id)
        .where('version', '<=', row.version - keep)
        .execute();
    },
    async list(sheetId: string, limit: number, offset: number) {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('sheet_revisions')
          .select(['version', 'title', 'folder', 'tags', 'changes', 'actor', 'updated_at'])
          .where('sheet_id', '=', sheetId)
          .orderBy('version', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
        db
          .selectFrom('sheet_revisions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('sheet_id', '=', sheetId)
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    /** The account names of `userIds` (writers of a team sheet's versions), by id. */
    async userNames(userIds: string[]): Promise<Map<string, string>> {
      if (userIds.length === 0) return new Map();
      const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', userIds).execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },
    find(sheetId: string, version: number, exec: Executor = db) {
      return exec.selectFrom('sheet_revisions').selectAll().where('sheet_id', '=', sheetId).where('version', '=', version).executeTakeFirst();
    },
    async removeForSheet(sheetId: string, exec: Executor) {
      await exec.deleteFrom('sheet_revisions').where('sheet_id', '=', sheetId).execute();
    },
    /** The revisions of trashed sheets the purge is about to remove (same condition as purgeTrashedBefore). */
    async removeForTrashedBefore(cutoff: string, exec: Executor) {
      await exec
        .deleteFrom('sheet_revisions')
        .where('sheet_id', 'in', (eb) => eb.selectFrom('sheets').select('id').where('trashed_at', 'is not', null).where('trashed_at', '<', cutoff))
        .execute();
    },
  };
}
export type SheetRevisionsRepo = ReturnType<typeof createSheetRevisionsRepo>;
