import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: a counter that moves whenever anything an authentication reads changes (a key's status,
 * scopes, expiry, owner, hash or name; an account's plan; a key or account deleted), in any process.
 * src/modules/api-keys/api-keys.service.ts keeps authenticated keys in memory and reads only this
 * one row per request instead of the key joined to its account: a disabled key still fails on the
 * very next request everywhere. last_used_at is left out on purpose (the once-a-minute touch must not
 * empty the cache). PostgreSQL: nothing (every request looks the key up, as before).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create table auth_generation (id integer primary key check (id = 1), n integer not null)`.execute(db);
  await sql`insert into auth_generation (id, n) values (1, 0)`.execute(db);
  const bump = sql`update auth_generation set n = n + 1 where id = 1;`;
  await sql`create trigger api_keys_auth_insert after insert on api_keys begin ${bump} end`.execute(db);
  await sql`create trigger api_keys_auth_delete after delete on api_keys begin ${bump} end`.execute(db);
  await sql`create trigger api_keys_auth_update after update of status, scopes, expires_at, user_id, key_hash, name on api_keys begin ${bump} end`.execute(db);
  await sql`create trigger users_auth_update after update of plan, id on users begin ${bump} end`.execute(db);
  await sql`create trigger users_auth_delete after delete on users begin ${bump} end`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
