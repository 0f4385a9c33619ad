import { sql } from 'kysely';
import type { Dialect } from './types.js';

/** Channel on which PostgreSQL processes tell each other's webhook workers that events were committed. */
export const OUTBOX_CHANNEL = 'sw_outbox';

/** Cross-process wake-up after a commit: NOTIFY on PostgreSQL; SQLite has no other processes to tell (null). */
export function outboxNotifySql(dialect: Dialect, payload: string) {
  return dialect === 'postgres' ? sql`select pg_notify(${OUTBOX_CHANNEL}, ${payload})` : null;
}

/** LISTEN on a dedicated connection (a pooled one would be returned to the pool). Returns a closer. */
export async function listenForOutbox(url: string, onNotify: (payload: string) => void, onError: (err: Error) => void): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  client.on('error', onError);
  client.on('notification', (msg) => onNotify(msg.payload ?? ''));
  await client.connect();
  await client.query(`listen ${OUTBOX_CHANNEL}`);
  return async () => {
    await client.end().catch(() => {});
  };
}
