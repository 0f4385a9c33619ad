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

/** Channel on which PostgreSQL processes tell each other's webhook workers that events were committed. */
export const OUTBOX_CHANNEL = 'sw_outbox';

/** Cross-process wake-up after a commit: NOTIFY on PostgreSQL; SQLite has no other processes to tell (null). */
export function outboxNotifySql(dialect: Dialect) {
  return dialect === 'postgres' ? sql`select pg_notify(${OUTBOX_CHANNEL}, '')` : null;
}

/** LISTEN on a dedicated connection (a pooled one would be returned to the pool). Returns a closer. */
export async function listenForOutbox(url: string, onNotify: () => void, onError: (err: Error) => void): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  client.on('error', onError);
  client.on('notification', onNotify);
  await client.connect();
  await client.query(`listen ${OUTBOX_CHANNEL}`);
  return async () => {
    await client.end().catch(() => {});
  };
}
