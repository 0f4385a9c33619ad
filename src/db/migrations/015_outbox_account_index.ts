import type { Kysely } from 'kysely';

/**
 * The outbox by account: GET /v1/events/stream reads one account's events after an id (Last-Event-ID,
 * at most 24 h back); without this index each read scans every account's outbox rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('outbox_user_id').on('outbox').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('outbox_user_id').ifExists().execute();
}
