import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/** Rows each (account, state) count is spread over, so concurrent writes of one account rarely wait for the same row. */
export const SHEET_COUNT_SHARDS = 8;

/**
 * PostgreSQL: how many sheets each account has live and in the trash, kept by triggers, so a list's
 * total is a sum of a few rows instead of a count of the account's index entries (24 ms at 100,000
 * sheets on a vacuumed table, 173 ms before the first vacuum: the list's p95 was 1.9 s at 50
 * connections). Each (account, state) is spread over SHEET_COUNT_SHARDS rows, one picked at random by
 * each statement: a row stays locked until its transaction ends, and on a single row every POST of
 * an account would wait for the one before it. A shard can go below zero; the sum is the count.
 * Inserts and deletes add up the statement's rows (transition tables, one upsert per account and
 * state); an update changes a count only when it moves a sheet between accounts or states.
 * SQLite: nothing (its count reads the partial index of live sheets by owner, ~3 ms).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`create table sheet_counts (
    user_id text not null, trashed boolean not null, shard smallint not null, n bigint not null,
    primary key (user_id, trashed, shard))`.execute(db);
  await sql`insert into sheet_counts (user_id, trashed, shard, n)
    select user_id, trashed_at is not null, 0, count(*) from sheets group by 1, 2`.execute(db);
  const shard = `floor(random() * ${SHEET_COUNT_SHARDS})::smallint`;
  // Rows are upserted in key order, so two statements on the same shard lock them in the same order.
  const add = (rows: string, sign: '+' | '-') => sql.raw(`insert into sheet_counts (user_id, trashed, shard, n)
      select user_id, trashed_at is not null, s.shard, ${sign}count(*) from ${rows}, (select ${shard} as shard) as s
      group by 1, 2, 3 order by 1, 2
      on conflict (user_id, trashed, shard) do update set n = sheet_counts.n + excluded.n;`);
  await sql`create function sheet_counts_insert() returns trigger language plpgsql as $$
    begin ${add('inserted', '+')} return null; end $$`.execute(db);
  await sql`create function sheet_counts_delete() returns trigger language plpgsql as $$
    begin ${add('deleted', '-')} return null; end $$`.execute(db);
  await sql`create function sheet_counts_move() returns trigger language plpgsql as $$
    begin
      insert into sheet_counts (user_id, trashed, shard, n) values (old.user_id, old.trashed_at is not null, ${sql.raw(shard)}, -1)
        on conflict (user_id, trashed, shard) do update set n = sheet_counts.n - 1;
      insert into sheet_counts (user_id, trashed, shard, n) values (new.user_id, new.trashed_at is not null, ${sql.raw(shard)}, 1)
        on conflict (user_id, trashed, shard) do update set n = sheet_counts.n + 1;
      return null;
    end $$`.execute(db);
  await sql`create trigger sheet_counts_insert after insert on sheets referencing new table as inserted
    for each statement execute function sheet_counts_insert()`.execute(db);
  await sql`create trigger sheet_counts_delete after delete on sheets referencing old table as deleted
    for each statement execute function sheet_counts_delete()`.execute(db);
  await sql`create trigger sheet_counts_move after update of user_id, trashed_at on sheets for each row
    when (old.user_id is distinct from new.user_id or (old.trashed_at is null) is distinct from (new.trashed_at is null))
    execute function sheet_counts_move()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
