import { sql } from 'kysely';
import { containsAllTerms, lockedForUpdate } from '../../db/dialect.js';
import type { Db, Executor, KnowledgeTable } from '../../db/types.js';
import type { KnowledgeKind } from './knowledge.schemas.js';

export interface KnowledgeListFilter {
  userId: string;
  kind: KnowledgeKind;
  terms: string[];
  tag?: string;
  limit: number;
}

export function createKnowledgeRepo(db: Db) {
  function filtered(f: Omit<KnowledgeListFilter, 'limit'>) {
    let q = db
      .selectFrom('knowledge')
      .where('user_id', '=', f.userId)
      .where('type', '=', f.kind)
      .where(containsAllTerms('search_text', f.terms));
    // tags is JSON array text written by JSON.stringify; an element starts right after '[' or ','
    // (a quote inside a string is always escaped). replace() is case-sensitive and portable,
    // unlike LIKE, which ignores ASCII case on SQLite only.
    if (f.tag !== undefined) {
      const el = JSON.stringify(f.tag);
      q = q.where(sql<boolean>`(replace(tags, ${`[${el}`}, '') <> tags or replace(tags, ${`,${el}`}, '') <> tags)`);
    }
    return q;
  }

  return {
    findById(id: string, exec: Executor = db) {
      return exec.selectFrom('knowledge').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Held until the transaction ends (PostgreSQL row lock; SQLite write transactions hold the database). */
    findByIdLocked(id: string, exec: Executor) {
      return lockedForUpdate(exec, exec.selectFrom('knowledge').selectAll().where('id', '=', id)).executeTakeFirst();
    },
    list(f: KnowledgeListFilter) {
      return filtered(f).selectAll().orderBy('id', 'desc').limit(f.limit).execute();
    },
    /** How many entries match, ignoring limit (MCP lists report a total). */
    async count(f: Omit<KnowledgeListFilter, 'limit'>): Promise<number> {
      const row = await filtered(f).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insert(row: KnowledgeTable, exec: Executor) {
      await exec.insertInto('knowledge').values(row).execute();
    },
    async update(id: string, patch: Partial<KnowledgeTable>, exec: Executor) {
      await exec.updateTable('knowledge').set(patch).where('id', '=', id).execute();
    },
    async remove(id: string, exec: Executor) {
      await exec.deleteFrom('knowledge').where('id', '=', id).execute();
    },
  };
}
export type KnowledgeRepo = ReturnType<typeof createKnowledgeRepo>;
