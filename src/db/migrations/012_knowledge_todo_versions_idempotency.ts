import type { Kysely } from 'kysely';

const PAGE = 5000;

/**
 * Versions on solutions, snippets and todos (existing rows start at 1); the unique key through which
 * concurrent todo syncs converge; and the table of idempotency keys.
 *
 * todos.content_key is the trimmed content of the task that a sync matches by content (decisions.md:
 * same project, same trimmed content, oldest first). Only that task holds the key; a task whose content
 * duplicates it (made before this migration, or renamed by id onto it) keeps content_key null, which the
 * unique index allows any number of. So existing duplicates are kept, never deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('todos').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('todos').addColumn('content_key', 'text').execute();
  await db.schema.alterTable('knowledge').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();

  // JavaScript's trim, the one sync has always matched with (SQL trim() only removes spaces).
  const taken = new Set<string>();
  for (let last = ''; ; ) {
    const rows: { id: string; user_id: string; project: string; content: string }[] = await db
      .selectFrom('todos')
      .select(['id', 'user_id', 'project', 'content'])
      .where('id', '>', last)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      const key = row.content.trim();
      const owner = JSON.stringify([row.user_id, row.project, key]);
      if (taken.has(owner)) continue;
      taken.add(owner);
      await db.updateTable('todos').set({ content_key: key }).where('id', '=', row.id).execute();
    }
    if (rows.length < PAGE) break;
    last = rows[rows.length - 1].id;
  }
  await db.schema.createIndex('todos_content_key').unique().on('todos').columns(['user_id', 'project', 'content_key']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.dropIndex('todos_content_key').execute();
  await db.schema.alterTable('knowledge').dropColumn('version').execute();
  await db.schema.alterTable('todos').dropColumn('content_key').execute();
  await db.schema.alterTable('todos').dropColumn('version').execute();
}
