import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * An explicit data model (issue 56): a record's `user_id` held its owner key, the account's id for a
 * personal record or the workspace's id for a team's, told apart by the `wsp_` prefix. Now every
 * record table has a `workspace_id` (personal workspaces included: 'wsp_' + the account id without
 * 'usr_', as 027 made them) and `user_id` is the account that created the record.
 *
 * - The owner key is mapped to its workspace id while it is still `user_id`, so the triggers that keep
 *   derived rows (sheet counts, PostgreSQL's token index, both search queues) move them with it, and
 *   every searchable record is queued again for the indexer (SQLite's FTS rows hold the owner as a
 *   word, which cannot be updated in place).
 * - The column is renamed `workspace_id`: its indexes (and SQLite's triggers) follow the rename.
 * - `user_id`, the creator: sessions and handovers had it as `author_id`, webhooks as `created_by`
 *   (renamed). Where it was not recorded (every other table, and team rows older than 036/037) it is
 *   the workspace's creator: for a personal record that is its account, exactly.
 * - Event rows (outbox, deliveries), sheet counts, distillation queue rows and PostgreSQL's token
 *   index belong to a workspace, not to an author: renamed only.
 * - PostgreSQL's trigger functions name columns in their text, which a rename does not change: they
 *   are made again with the new names.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
const WITH_CREATOR = ['sheets', 'knowledge', 'todos', 'work_logs', 'spark_runs', 'user_sparks', 'exports', 'knowledge_suggestions'];
const AUTHOR_COLUMN: [string, string][] = [
  ['sessions', 'author_id'],
  ['handovers', 'author_id'],
  ['webhooks', 'created_by'],
];
const WORKSPACE_ONLY = ['sheet_counts', 'outbox', 'deliveries', 'session_distills'];

const personal = (column: string) => `'wsp_' || substr(${column}, 5)`;
const creatorOf = (table: string) => `(select w.created_by from workspaces as w where w.id = ${table}.workspace_id)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const tables = [...WITH_CREATOR, ...AUTHOR_COLUMN.map(([t]) => t), ...WORKSPACE_ONLY];
  if (pg) tables.push('sheet_tokens');
  // Sheets move through their triggers: counts (the old key's rows sum to zero after) and PostgreSQL's tokens follow.
  for (const table of tables.filter((t) => t !== 'sheet_counts' && t !== 'sheet_tokens')) {
    await sql.raw(`update ${table} set user_id = ${personal('user_id')} where user_id like 'usr\\_%' escape '\\'`).execute(db);
  }
  await sql.raw(`delete from sheet_counts where user_id like 'usr\\_%' escape '\\'`).execute(db);
  for (const table of ['search_docs', 'search_vectors']) {
    await sql.raw(`update ${table} set owner_key = ${personal('owner_key')} where owner_key like 'usr\\_%' escape '\\'`).execute(db);
  }
  if (!pg) await requeueSqliteSearch(db);

  for (const table of tables) await sql.raw(`alter table ${table} rename column user_id to workspace_id`).execute(db);
  for (const [table, author] of AUTHOR_COLUMN) await sql.raw(`alter table ${table} rename column ${author} to user_id`).execute(db);
  for (const table of WITH_CREATOR) await sql.raw(`alter table ${table} add column user_id text`).execute(db);
  for (const table of [...WITH_CREATOR, ...AUTHOR_COLUMN.map(([t]) => t)]) {
    await sql.raw(`update ${table} set user_id = ${creatorOf(table)} where user_id is null`).execute(db);
  }
  if (pg) await remakePgFunctions(db);
}

/**
 * The mapping's updates queued the sheets, sessions, knowledge and todos they changed; team records
 * did not change. The FTS rows of both hold the owner word of before, so every record is queued (as 041).
 */
async function requeueSqliteSearch(db: Kysely<unknown>) {
  await sql`delete from search_fts`.execute(db);
  await sql`delete from search_docs`.execute(db);
  await sql`delete from search_queue`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'sheet', id from sheets where trashed_at is null`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'session', id from sessions`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'knowledge', id from knowledge`.execute(db);
  await sql`insert into search_queue (kind, record_id) select 'todo', id from todos`.execute(db);
}

/** 021's, 032's and 034's functions with the renamed columns (same behaviour, same sharding). */
async function remakePgFunctions(db: Kysely<unknown>) {
  const shards = 8;
  const shard = `floor(random() * ${shards})::integer`;
  const state = (row: string) => `(case when ${row}.trashed_at is null then 0 else 1 end)`;
  const upsert = (row: string, n: string) =>
    `insert into sheet_counts (workspace_id, trashed, shard, n) values (${row}.workspace_id, ${state(row)}, ${shard}, ${n})
      on conflict (workspace_id, trashed, shard) do update set n = sheet_counts.n + excluded.n;`;
  const add = (rows: string, sign: '+' | '-') =>
    `insert into sheet_counts (workspace_id, trashed, shard, n)
      select workspace_id, ${state(rows)}, s.shard, ${sign}count(*) from ${rows}, (select ${shard} as shard) as s
      group by 1, 2, 3 order by 1, 2
      on conflict (workspace_id, trashed, shard) do update set n = sheet_counts.n + excluded.n;`;
  await sql.raw(`create or replace function sheet_counts_insert() returns trigger language plpgsql as $$ begin ${add('inserted', '+')} return null; end $$`).execute(db);
  await sql.raw(`create or replace function sheet_counts_delete() returns trigger language plpgsql as $$ begin ${add('deleted', '-')} return null; end $$`).execute(db);
  await sql.raw(`create or replace function sheet_counts_move() returns trigger language plpgsql as $$
    begin ${upsert('old', '-1')} ${upsert('new', '1')} return null; end $$`).execute(db);

  await sql.raw(`create or replace function sheet_tokens_insert() returns trigger language plpgsql as $$ begin
    insert into sheet_tokens (sheet_id, workspace_id, trashed, tokens, capped, pending)
      select id, workspace_id, trashed_at is not null, '{}', false, true from inserted;
    return null; end $$`).execute(db);
  await sql.raw(`create or replace function sheet_tokens_update() returns trigger language plpgsql as $$
    begin
      if old.search_text is distinct from new.search_text then
        update sheet_tokens set workspace_id = new.workspace_id, trashed = new.trashed_at is not null, tokens = '{}', capped = false, pending = true
          where sheet_id = new.id;
      else
        update sheet_tokens set workspace_id = new.workspace_id, trashed = new.trashed_at is not null where sheet_id = new.id;
      end if;
      return null;
    end $$`).execute(db);

  await sql.raw(`create or replace function outbox_unwatched_dispatched() returns trigger language plpgsql as $$
    begin
      if new.dispatched_at is null and not exists (
        select 1 from webhooks as w where w.workspace_id = new.workspace_id and w.status = 'enabled'
          and (position('"' || new.event || '"' in w.events) > 0 or position('"*"' in w.events) > 0)) then
        new.dispatched_at := new.created_at;
      end if;
      return new;
    end $$`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
