import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: an event that no enabled webhook of its owner subscribes to is stored already dispatched
 * (dispatched_at = created_at), so the webhook worker's fan-out never reads or updates it (issue 34).
 * Fanning out every event was ~50 µs of PostgreSQL per POST /v1/sheets with no webhook at all: the
 * select of undispatched rows, then an UPDATE of dispatched_at (a new row version and three index
 * entries) and the vacuum of the old one; 40 % of the write's database time.
 *
 * - A BEFORE INSERT row trigger: it sets the column of the row being inserted, no second write.
 * - Subscribed: the webhook's `events` (a JSON array of names, written by the service) holds the
 *   event's name or "*", matched as a quoted string, as the fan-out's subscribes() does. Whether the
 *   owner's plan pays for deliveries is still the fan-out's check.
 * - The webhooks read are those committed when the INSERT's statement began. An event written as a
 *   webhook is being created goes to the webhook only if the webhook was committed first; the fan-out
 *   likewise only ever sees webhooks committed before it runs.
 * - An event given with dispatched_at set (a copy from SQLite) is kept as given.
 *
 * SQLite: nothing. Its fan-out runs in the writing process, beside the write, and costs a fraction of this.
 * Frozen text: a later change is a new migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create function outbox_unwatched_dispatched() returns trigger language plpgsql as $$
    begin
      if new.dispatched_at is null and not exists (
        select 1 from webhooks as w where w.user_id = new.user_id and w.status = 'enabled'
          and (position('"' || new.event || '"' in w.events) > 0 or position('"*"' in w.events) > 0)) then
        new.dispatched_at := new.created_at;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger outbox_unwatched_dispatched before insert on outbox
    for each row execute function outbox_unwatched_dispatched()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
