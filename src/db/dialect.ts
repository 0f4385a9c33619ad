import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from './types.js';

/**
 * The one place where SQLite and PostgreSQL differ. Everything else in the
 * codebase writes portable Kysely.
 */

/** Text as search sees it: Unicode-normalized (full-width -> half-width) and lower-cased. */
export function normalizeForSearch(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Splits a query into terms; every term must occur (substring match, so CJK words of any length work). */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  return normalizeForSearch(q)
    .split(/\s+/u)
    .filter((t) => t.length > 0)
    .slice(0, 10);
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column` contains every term. Columns hold normalizeForSearch() text, so the match is case-insensitive on both dialects. */
export function containsAllTerms(column: string, terms: string[]): Expression<SqlBool> {
  const parts = terms.map((t) => sql<SqlBool>`${sql.ref(column)} like ${likePattern(t)} escape '\\'`);
  return parts.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** Row lock clause for queue claims: SKIP LOCKED on PostgreSQL; SQLite serializes writers anyway. */
export function skipLockedSuffix(dialect: Dialect) {
  return dialect === 'postgres' ? sql`for update skip locked` : sql``;
}
