import { sql, type Expression, type SqlBool } from 'kysely';
import { likePattern } from './like.js';

/** `column` contains every term. Columns hold normalizeForSearch() text, so the match is case-insensitive on both dialects. */
export function containsAllTerms(column: string, terms: string[]): Expression<SqlBool> {
  const parts = terms.map((t) => sql<SqlBool>`${sql.ref(column)} like ${likePattern(t)} escape '\\'`);
  return parts.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}
