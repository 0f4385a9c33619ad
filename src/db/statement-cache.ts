import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver calls prepare() for every query it runs, and preparing costs more
 * than running a small query. This keeps the prepared statements by SQL text (least recently
 * used first out), so a hot route prepares each of its statements once. A statement that is
 * still being iterated (a streamed query) is never handed out twice: a fresh one is prepared.
 */
export function withStatementCache(file: SQLite.Database, max = 1000): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      const hit = cache.get(sql);
      if (hit && !hit.busy) {
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = file.prepare(sql);
      if (!hit) {
        cache.set(sql, stmt);
        if (cache.size > max) cache.delete(cache.keys().next().value as string);
      }
      return stmt;
    },
    close() {
      cache.clear();
      file.close();
    },
  };
}
