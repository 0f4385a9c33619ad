import type { Kysely } from 'kysely';

/** A user's own sparks. Public sparks live in code (src/modules/sparks/catalogue.ts); runs go to spark_runs (001). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_sparks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_sparks_user').on('user_sparks').columns(['user_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
