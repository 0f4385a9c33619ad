import type { Expression, SqlBool } from 'kysely';
import type { Db } from '../../db/types.js';
import type { ListFilter, OwnedList } from '../search/substring/owned-list.js';
import { SHEET_ROW_COLUMNS, type SheetRow } from './sheets.view.js';

/**
 * The list queries of a workspace's sheets, used by sheets.repo.ts and, for `q`, by the search module's
 * substring search (SHEETS_LIST).
 */
export type SheetListFilter = ListFilter;

/** The workspace's sheets in one state (live or trashed): where every list, search and count of theirs starts. */
export const ownedSheets = (db: Db, f: Pick<SheetListFilter, 'workspaceId' | 'trashed'>) =>
  db
    .selectFrom('sheets')
    .where('workspace_id', '=', f.workspaceId)
    .where('trashed_at', f.trashed ? 'is not' : 'is', null);

/** A page of the owner's sheets (holding `search`, if given), newest first: the list's order without `q`. */
export const newestFirstPage = (db: Db, f: SheetListFilter, search?: Expression<SqlBool>) =>
  (search ? ownedSheets(db, f).where(search) : ownedSheets(db, f)).select(SHEET_ROW_COLUMNS).orderBy('id', 'desc').limit(f.limit).offset(f.offset);

/** How many sheets the workspace has in one state: the sum of the counts triggers keep (migration 021), a few rows. */
export async function countOwnedSheets(db: Db, f: Pick<SheetListFilter, 'workspaceId' | 'trashed'>): Promise<number> {
  const { n } = await db
    .selectFrom('sheet_counts')
    .where('workspace_id', '=', f.workspaceId)
    .where('trashed', '=', f.trashed ? 1 : 0)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The sheets list as the search module's substring search reads it (`GET /v1/sheets?q=`). */
export const SHEETS_LIST: OwnedList<SheetRow> = { columns: SHEET_ROW_COLUMNS, owned: ownedSheets, newestFirstPage, countOwned: countOwnedSheets };
