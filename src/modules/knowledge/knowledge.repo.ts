import { sql } from 'kysely';
import { lockedForUpdate } from '../../db/dialect.js';
import { containsAllTerms } from '../search/substring/contains.js';
import type { Db, Executor, KnowledgeTable } from '../../db/types.js';
import type { KnowledgeKind } from './knowledge.schemas.js';

export interface KnowledgeListFilter {
  workspaceId: string;
  kind: KnowledgeKind;
  terms: string[];
  /** Entries need this many of the terms (all when absent); with fewer than all, most matched rank first. */
  minMatches?: number;
  tag?: string;
  limit: number;
  offset?: number;
}

const partial = (f: { terms: string[]; minMatches?: number }) => f.minMatches !== undefined && f.minMatches < f.terms.length;

/** How many of the terms search_text contains (portable: CASE and LIKE on both dialects). */
function matchCount(terms: string[]) {
  const one = (t: string) => sql<number>`(case when ${containsAllTerms('search_text', [t])} then 1 else 0 end)`;
  return sql<number>`(${sql.join(terms.map(one), sql` + `)})`;
}

export function createKnowledgeRepo(db: Db) {
  function filtered(f: Omit<KnowledgeListFilter, 'limit'>) {
    let q = db
      .selectFrom('knowledge')
      .where('workspace_id', '=', f.workspaceId)
      .where('type', '=', f.kind)
      .where(partial(f) ? sql<boolean>`${matchCount(f.terms)} >= ${f.minMatches}` : containsAllTerms('search_text', f.terms));
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
      const q = filtered(f).selectAll();
      return (partial(f) ? q.orderBy(matchCount(f.terms), 'desc') : q)
        .orderBy('id', 'desc')
        .limit(f.limit)
        .offset(f.offset ?? 0)
        .execute();
    },
    /** How many entries match, ignoring limit (MCP lists report a total). */
    async count(f: Omit<KnowledgeListFilter, 'limit' | 'offset'>): Promise<number> {
      const row = await filtered(f)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
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
