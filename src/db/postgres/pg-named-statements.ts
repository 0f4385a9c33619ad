import type { PostgresPool, PostgresPoolClient } from 'kysely';

/**
 * PostgreSQL parses and plans every unnamed statement again. The statements compiled once
 * (src/db/sqlite/statement-cache.ts: the key lookup on every request, GET by id's row, every compiledInsert)
 * have a fixed text, so they run as named prepared statements instead: parsed once per connection,
 * and planned once when PostgreSQL's generic plan is as good. The key lookup joins four tables (the key,
 * its account, the OAuth grant it was issued under and that grant's approving key), and planning that
 * on every request cost GET by id about a third of its throughput (docs/performance.md, twelfth pass).
 * Only registered texts are named, so the statements a connection keeps are bounded by the call sites.
 * Behind PgBouncer in transaction mode this needs its max_prepared_statements (1.21 or later).
 */
const names = new Map<string, string>();

/** Runs `sql` as a named prepared statement from now on (idempotent). */
export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `sw_stmt_${names.size + 1}`);
}

/** `pool` for Kysely's PostgresDialect, whose clients run registered texts as named statements. */
export function withNamedStatements(pool: PostgresPool): PostgresPool {
  const wrapped = new WeakMap<PostgresPoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let view = wrapped.get(client);
      if (!view) {
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        view = {
          query: ((sqlOrCursor: unknown, parameters?: readonly unknown[]) => {
            const name = typeof sqlOrCursor === 'string' ? names.get(sqlOrCursor) : undefined;
            return name ? query({ name, text: sqlOrCursor, values: parameters }) : query(sqlOrCursor, parameters);
          }) as PostgresPoolClient['query'],
          release: () => client.release(),
        };
        wrapped.set(client, view);
      }
      return view;
    },
    end: () => pool.end(),
  };
}
