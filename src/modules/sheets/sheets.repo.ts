import { compiledInsert, compiledOnce } from '../../db/sqlite/statement-cache.js';
import type { Db, Executor, SheetsTable } from '../../db/types.js';
import { countOwnedSheets, newestFirstPage, SHEETS_LIST, type SheetListFilter } from './sheets.list.repo.js';
import { searchOwnedList, type Present, type SearchOptions } from '../search/substring/owned-list.js';
import { SHEET_ROW_COLUMNS, type SheetRow, type StoredSheetRow } from './sheets.view.js';
import { dialectOf, storedUtf8, utf8Buffer } from '../../db/dialect.js';
import { createReadBatcher, type ReadWithAuthGeneration } from './sheets.read-batch.js';

/** The hottest read (every GET, PATCH and DELETE of a sheet), compiled once. */
const byId = compiledOnce((db: Db, id: string) => db.selectFrom('sheets').select(SHEET_ROW_COLUMNS).where('id', '=', id));
/** The same row with its content as stored bytes, for reads that answer it as JSON without parsing it (sheetJson). */
const storedById = compiledOnce((db: Db, id: string) =>
  db
    .selectFrom('sheets')
    .select(['id', 'workspace_id', 'title', storedUtf8(db, 'content').as('content'), 'folder', 'tags', 'created_at', 'updated_at', 'trashed_at', 'version'])
    .where('id', '=', id),
);
/** Every stored column: what reads fetch, and the search text. */
const insertRow = compiledInsert('sheets', [...SHEET_ROW_COLUMNS, 'search_text'] as const);

export function createSheetsRepo(db: Db, searchOptions: SearchOptions) {
  const readBatch = dialectOf(db) === 'postgres' ? createReadBatcher(db) : undefined;
  return {
    async findById(id: string, exec: Executor = db) {
      return (await byId(exec, id))[0];
    },
    async findStoredById(id: string): Promise<StoredSheetRow | undefined> {
      const [row] = await storedById(db, id);
      if (row) row.content = utf8Buffer(row.content);
      return row as StoredSheetRow | undefined;
    },
    /**
     * PostgreSQL only (undefined on SQLite, whose generation read is a synchronous local read): the sheet
     * as findStoredById reads it, and the auth generation read by the same statement.
     */
    findStoredByIdWithAuthGeneration(id: string): Promise<ReadWithAuthGeneration> | undefined {
      return readBatch?.(id);
    },
    /** A page of the owner's sheets, newest first (`f.terms` is not read: see search). */
    async list(f: SheetListFilter) {
      const [rows, total] = await Promise.all([newestFirstPage(db, f).execute(), countOwnedSheets(db, f)]);
      return { rows, total };
    },
    /** The sheets holding `f.terms`, their page presented by `present` (which SQLite may run while it counts them). */
    search<Item>(f: SheetListFilter, present: Present<SheetRow, Item>) {
      return searchOwnedList(db, SHEETS_LIST, f, searchOptions, present);
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
