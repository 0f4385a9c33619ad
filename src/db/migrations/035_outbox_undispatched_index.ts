import { sql, type Kysely } from 'kysely';

/**
 * The fan-out's index holds only the events still to fan out: `(id) where dispatched_at is null`
 * replaces `(dispatched_at, id)` (migration 001), which kept an entry for every event ever written.
 * An event stored dispatched (PostgreSQL: no webhook wants it, migration 034) no longer adds an index
 * entry, one fanned out leaves the index instead of moving within it, and the fan-out reads its
 * oldest waiting events in order without a sort. Nothing else reads outbox by dispatched_at.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index outbox_undispatched on outbox (id) where dispatched_at is null`.execute(db);
  await sql`drop index outbox_pending`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
