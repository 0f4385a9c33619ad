import { sql, type Expression, type SqlBool } from 'kysely';
import { countOwnedMatches, indexedContainsAllTerms, indexedMatchKeys, rowKey, SHEETS_SEARCH } from '../../db/dialect.js';
import { compiledOnce } from '../../db/statement-cache.js';
import type { Db, Executor, SheetsTable } from '../../db/types.js';

/** The hottest read (every GET, PATCH and DELETE of a sheet), compiled once. */
const byId = compiledOnce((db: Db, id: string) => db.selectFrom('sheets').selectAll().where('id', '=', id));

export interface SheetListFilter {
  userId: string;
  trashed: boolean;
  terms: string[];
  limit: number;
  offset: number;
}

export function createSheetsRepo(db: Db) {
  function filtered(f: SheetListFilter, search: Expression<SqlBool>) {
    return db
      .selectFrom('sheets')
      .where('user_id', '=', f.userId)
      .where('trashed_at', f.trashed ? 'is not' : 'is', null)
      .where(search);
  }

  /**
   * A search evaluates the match once: the matching keys are materialized, then the page walks
   * the account's index in id order against them and the total counts them in the same statement
   * (two separate queries evaluated the FTS match, the costly part, twice).
   */
  async function searchOnce(f: SheetListFilter) {
    const key = rowKey(db);
    const keys = await indexedMatchKeys(db, SHEETS_SEARCH, f.terms);
    const rows = await db
      .with((wb) => wb('m').materialized(), () => sql`(${keys})`)
      .selectFrom('sheets')
      .selectAll('sheets')
      .select(sql<number>`(${countOwnedMatches(db, SHEETS_SEARCH, 'm', { userId: f.userId, trashed: f.trashed })})`.as('total'))
      .where('sheets.user_id', '=', f.userId)
      .where('sheets.trashed_at', f.trashed ? 'is not' : 'is', null)
      .where(sql<SqlBool>`${sql.ref(`sheets.${key}`)} in (select k from m)`)
      .orderBy('sheets.id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute();
    if (rows.length > 0) return { rows: rows.map(({ total: _, ...row }) => row), total: Number(rows[0].total) };
    if (f.offset === 0 && f.limit > 0) return { rows: [], total: 0 };
    const count = await filtered(f, await indexedContainsAllTerms(db, SHEETS_SEARCH, f.terms)).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return { rows: [], total: Number(count.n) };
  }

  return {
    async findById(id: string, exec: Executor = db) {
      return (await byId(exec, id))[0];
    },
    async list(f: SheetListFilter) {
      if (f.terms.length > 0) return searchOnce(f);
      const search = await indexedContainsAllTerms(db, SHEETS_SEARCH, f.terms);
      const [rows, count] = await Promise.all([
        filtered(f, search).selectAll().orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
        filtered(f, search).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    async insert(row: SheetsTable, exec: Executor) {
      await exec.insertInto('sheets').values(row).execute();
    },
    async update(id: string, patch: Partial<SheetsTable>, exec: Executor = db) {
      await exec.updateTable('sheets').set(patch).where('id', '=', id).execute();
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
