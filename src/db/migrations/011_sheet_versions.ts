import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Sheet versions and revisions (issue 13). Every existing sheet starts at version 1. A revision is
 * the state a write replaced: title, folder and tags as text, the content JSON deflated (node:zlib),
 * plus the changes and actor of the write that made that version. sheets.last_changes/last_actor hold
 * those two for the current version until the next write moves them into its revision.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema.alterTable('sheets').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('sheets').addColumn('last_changes', 'text').execute();
  await db.schema.alterTable('sheets').addColumn('last_actor', 'text').execute();
  await db.schema
    .createTable('sheet_revisions')
    .addColumn('sheet_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', bytes, (c) => c.notNull())
    .addColumn('folder', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('changes', 'text')
    .addColumn('actor', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sheet_revisions_pk', ['sheet_id', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sheet_revisions').ifExists().execute();
  await db.schema.alterTable('sheets').dropColumn('last_actor').execute();
  await db.schema.alterTable('sheets').dropColumn('last_changes').execute();
  await db.schema.alterTable('sheets').dropColumn('version').execute();
}
