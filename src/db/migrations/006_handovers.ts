import type { Kysely } from 'kysely';

/**
 * Which session (and so which project) each handover sheet came from, so "the latest handover of
 * project X" (the MCP handover resource and resume_work prompt) is one indexed lookup.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('handovers')
    .addColumn('handover_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('project', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('handovers_project').on('handovers').columns(['user_id', 'project', 'handover_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('handovers').execute();
}
