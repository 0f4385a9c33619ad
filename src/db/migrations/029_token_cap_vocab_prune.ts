import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL token index upkeep (issue 34, item 5; see src/db/pg-token-index.ts and
 * src/db/pg-token-vocab-prune.ts). SQLite: nothing (its FTS vocabulary is the index itself).
 *
 * - A sheet whose text gives more than 20,000 distinct tokens keeps none: its sheet_tokens row is
 *   `capped` with an empty array, and searches test its text with LIKE instead. One write of 500,000
 *   distinct CJK characters used to add ~1M tokens to the GIN index and the vocabulary.
 * - The vocabulary may now lose rows no sheet uses (pruned in the background). A writer takes advisory
 *   lock 290029 shared, before it reads the vocabulary, and holds it to its commit; a pruner takes it
 *   exclusive for one short delete. So a pruner never deletes a token a writer relies on without
 *   seeing that writer's tokens, and a writer that waited sees the deletion and adds the token back.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
const CAP = 20000;
const LOCK = 290029;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table sheet_tokens add column capped boolean not null default false`.execute(db);
  await sql.raw(`update sheet_tokens set tokens = '{}', capped = true where cardinality(tokens) > ${CAP}`).execute(db);
  await sql`create index sheet_tokens_capped on sheet_tokens (user_id, trashed) where capped`.execute(db);
  await sql.raw(`create or replace function sheet_tokens_insert() returns trigger language plpgsql as $$ begin
    perform pg_advisory_xact_lock_shared(${LOCK});
    with cut as (select id, user_id, trashed_at is not null as trashed, sheet_tokens_of(search_text) as tokens from inserted),
      added as (insert into sheet_tokens (sheet_id, user_id, trashed, tokens, capped)
        select id, user_id, trashed, case when cardinality(tokens) > ${CAP} then '{}' else tokens end, cardinality(tokens) > ${CAP} from cut
        returning tokens)
    insert into sheet_token_vocab (token) select distinct x.w from (select unnest(tokens) from added) as x(w)
      where not exists (select 1 from sheet_token_vocab as v where v.token = x.w);
    return null; end $$`).execute(db);
  await sql.raw(`create or replace function sheet_tokens_update() returns trigger language plpgsql as $$
    declare toks text[];
    begin
      if old.search_text is distinct from new.search_text then
        perform pg_advisory_xact_lock_shared(${LOCK});
        toks := sheet_tokens_of(new.search_text);
        if cardinality(toks) > ${CAP} then
          update sheet_tokens set user_id = new.user_id, trashed = new.trashed_at is not null, tokens = '{}', capped = true where sheet_id = new.id;
        else
          update sheet_tokens set user_id = new.user_id, trashed = new.trashed_at is not null, tokens = toks, capped = false where sheet_id = new.id;
          insert into sheet_token_vocab (token) select distinct x.w from unnest(toks) as x(w)
            where not exists (select 1 from sheet_token_vocab as v where v.token = x.w);
        end if;
      else
        update sheet_tokens set user_id = new.user_id, trashed = new.trashed_at is not null where sheet_id = new.id;
      end if;
      return null;
    end $$`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
