import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL gets SQLite's auth generation (migrations 019 and 025): a counter that moves whenever
 * anything an authentication reads changes (a key's status, scopes, expiry, owner, hash, name, workspace
 * or grant; an account's plan; an OAuth grant's status or approving key; a key, account or grant
 * deleted), in any process. Authenticated keys are then kept in memory and checked against this one row
 * instead of the four-table key lookup on every request. Statement-level triggers: one bump per
 * statement however many rows it changes. last_used_at is left out on purpose (the once-a-minute touch
 * must not empty the cache). SQLite: nothing (019 made it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create table auth_generation (id integer primary key check (id = 1), n bigint not null)`.execute(db);
  await sql`insert into auth_generation (id, n) values (1, 0)`.execute(db);
  await sql`create function auth_generation_bump() returns trigger language plpgsql as $$
    begin
      update auth_generation set n = n + 1 where id = 1;
      return null;
    end $$`.execute(db);
  const bumpAfter = (name: string, event: string, table: string) =>
    sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.table(table)} for each statement execute function auth_generation_bump()`.execute(db);
  await bumpAfter('api_keys_auth_insert', 'insert', 'api_keys');
  await bumpAfter('api_keys_auth_delete', 'delete', 'api_keys');
  await bumpAfter('api_keys_auth_update', 'update of status, scopes, expires_at, user_id, key_hash, name, workspace_id, issued_by_grant', 'api_keys');
  await bumpAfter('users_auth_update', 'update of plan, id', 'users');
  await bumpAfter('users_auth_delete', 'delete', 'users');
  await bumpAfter('oauth_grants_auth_update', 'update of status, approved_by_key', 'oauth_grants');
  await bumpAfter('oauth_grants_auth_delete', 'delete', 'oauth_grants');
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
