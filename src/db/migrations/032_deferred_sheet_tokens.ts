import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: a write no longer tokenizes its sheet (issue 34). Tokenizing in the writing transaction
 * was most of a POST's database time: ~6.5 ms a sheet alone, where the plain insert takes ~0.75 ms.
 * Now the triggers only mark the sheet's sheet_tokens row `pending` (empty tokens), and a background
 * indexer (src/db/pg-token-indexer.ts) tokenizes pending rows in batches. Until then a search tests
 * a pending sheet's text with LIKE, as it does a capped one, so a write is found at once.
 *
 * - `pending`: the row's tokens are not those of the sheet's current text. Its partial index finds
 *   them for the indexer and for searches (normally none or a few).
 * - The insert trigger adds pending rows; the update trigger marks the row pending when the text
 *   changes, and moves owner and state as before. Neither reads the vocabulary any more, so neither
 *   takes the vocabulary lock: the indexer does, when it adds tokens.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table sheet_tokens add column pending boolean not null default false`.execute(db);
  await sql`create index sheet_tokens_pending on sheet_tokens (user_id, trashed) where pending`.execute(db);
  await sql.raw(`create or replace function sheet_tokens_insert() returns trigger language plpgsql as $$ begin
    insert into sheet_tokens (sheet_id, user_id, trashed, tokens, capped, pending)
      select id, user_id, trashed_at is not null, '{}', false, true from inserted;
    return null; end $$`).execute(db);
  await sql.raw(`create or replace function sheet_tokens_update() returns trigger language plpgsql as $$
    begin
      if old.search_text is distinct from new.search_text then
        update sheet_tokens set user_id = new.user_id, trashed = new.trashed_at is not null, tokens = '{}', capped = false, pending = true
          where sheet_id = new.id;
      else
        update sheet_tokens set user_id = new.user_id, trashed = new.trashed_at is not null where sheet_id = new.id;
      end if;
      return null;
    end $$`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
