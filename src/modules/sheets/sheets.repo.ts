import { compiledInsert, compiledOnce } from '../../db/statement-cache.js';
import type { Db, Executor, SheetsTable } from '../../db/types.js';
import { countOwnedSheets, newestFirstPage, type SheetListFilter } from './sheets.list.repo.js';
import { searchSheets, type SearchOptions } from './sheets.search.js';
import { SHEET_ROW_COLUMNS, type StoredSheetRow } from './sheets.view.js';
import { sql } from 'kysely';
import { dialectOf, storedUtf8, utf8Buffer } from '../../db/dialect.js';
import { andThen, type MaybePromise } from '../../lib/maybe-async.js';

/** The hottest read (every GET, PATCH and DELETE of a sheet), compiled once. */
const byId = compiledOnce((db: Db, id: string) => db.selectFrom('sheets').select(SHEET_ROW_COLUMNS).where('id', '=', id));
/** The same row with its content as stored bytes, for reads that answer it as JSON without parsing it (sheetJson). */
const storedById = compiledOnce((db: Db, id: string) =>
  db
    .selectFrom('sheets')
    .select(['id', 'user_id', 'title', storedUtf8(db, 'content').as('content'), 'folder', 'tags', 'created_at', 'updated_at', 'trashed_at', 'version'])
    .where('id', '=', id),
);
/**
 * storedById with the auth generation (migration 031) in the same statement, for GET by id's hot route
 * on PostgreSQL: the request then authenticates with the generation this statement read (a read issued
 * after it arrived), one round trip and one statement instead of a generation read and then the row.
 * The generation row always exists, so a missing sheet comes back as a row of nulls beside it.
 */
const storedByIdWithAuthGeneration = compiledOnce((db: Db, id: string) =>
  db
    .selectFrom('auth_generation')
    .leftJoin('sheets', (join) => join.on('sheets.id', '=', id))
    .select(sql<number>`cast(auth_generation.n as double precision)`.as('auth_generation'))
    .select(['sheets.id', 'sheets.user_id', 'sheets.title', storedUtf8(db, 'sheets.content').as('content'), 'sheets.folder', 'sheets.tags'])
    .select(['sheets.created_at', 'sheets.updated_at', 'sheets.trashed_at', 'sheets.version'])
    .where('auth_generation.id', '=', 1),
);
const insertRow = compiledInsert('sheets', [
  'id', 'user_id', 'title', 'content', 'folder', 'tags', 'search_text', 'created_at', 'updated_at', 'trashed_at', 'version', 'last_changes', 'last_actor',
]);

export function createSheetsRepo(db: Db, searchOptions: SearchOptions) {
  return {
    async findById(id: string, exec: Executor = db) {
      return (await byId(exec, id))[0];
    },
    findStoredById(id: string): MaybePromise<StoredSheetRow | undefined> {
      return andThen(storedById(db, id), ([row]) => {
        if (row) row.content = utf8Buffer(row.content);
        return row as StoredSheetRow | undefined;
      });
    },
    /**
     * PostgreSQL only (undefined on SQLite, whose generation read is a synchronous local read): the sheet
     * as findStoredById reads it, and the auth generation read by the same statement.
     */
    findStoredByIdWithAuthGeneration(id: string): Promise<{ authGeneration: number | undefined; row: StoredSheetRow | undefined }> | undefined {
      if (dialectOf(db) !== 'postgres') return undefined;
      return Promise.resolve(storedByIdWithAuthGeneration(db, id)).then((rows) => {
        const first = rows[0];
        if (!first) return { authGeneration: undefined, row: undefined };
        const { auth_generation, ...row } = first;
        if (row.id === null) return { authGeneration: auth_generation, row: undefined };
        row.content = utf8Buffer(row.content!);
        return { authGeneration: auth_generation, row: row as StoredSheetRow };
      });
    },
    async list(f: SheetListFilter) {
      if (f.terms.length > 0) return searchSheets(db, f, searchOptions);
      const [rows, total] = await Promise.all([newestFirstPage(db, f).execute(), countOwnedSheets(db, f)]);
      return { rows, total };
    },
    async insert(row: SheetsTable, exec: Executor) {
      await insertRow(exec, row);
    },
    async remove(id: string, exec: Executor) {
      await exec.deleteFrom('sheets').where('id', '=', id).execute();
      // Its exports hold rendered copies of the content: they go with it (the 30-day purge's go in exports.purgeExpired).
      await exec.deleteFrom('exports').where('sheet_id', '=', id).execute();
    },
    async purgeTrashedBefore(cutoff: string, exec: Executor = db): Promise<number> {
      const r = await exec.deleteFrom('sheets').where('trashed_at', 'is not', null).where('trashed_at', '<', cutoff).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type SheetsRepo = ReturnType<typeof createSheetsRepo>;
