import { sql } from 'kysely';
import type { Dialect } from '../types.js';

/** Channel on which PostgreSQL processes tell each other's webhook workers that events were committed. */
export const OUTBOX_CHANNEL = 'sw_outbox';

/** Cross-process wake-up after a commit: NOTIFY on PostgreSQL; SQLite has no other processes to tell (null). */
export function outboxNotifySql(dialect: Dialect, payload: string) {
  return dialect === 'postgres' ? sql`select pg_notify(${OUTBOX_CHANNEL}, ${payload})` : null;
}

export interface ListenEvents {
  /** The LISTEN connection was lost or could not be made (once per outage): callers poll meanwhile. */
  onLost(err: Error): void;
  /**
   * LISTEN is back after a loss. NOTIFYs sent meanwhile were missed: the caller reads what it would
   * have been told, once, as it does at start.
   */
  onBack(): void;
}

/** Waits between reconnection attempts: 100 ms, doubling, at most this. */
const MAX_RETRY_MS = 2000;

/**
 * LISTEN on a dedicated connection (a pooled one would be returned to the pool). The connection is
 * kept: when PostgreSQL drops it (a restart, a failover, pg_terminate_backend) or it cannot be made,
 * it is made again with backoff, for as long as the listener is open; the process never ends over it.
 * Returns a closer.
 */
export async function listenForOutbox(url: string, onNotify: (payload: string) => void, events: ListenEvents): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  let client: InstanceType<typeof pg.Client> | undefined;
  let closed = false;
  let down = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  const lost = (from: InstanceType<typeof pg.Client>, err: Error) => {
    if (from !== client || closed) return; // a client given up on already, or the closer's own end
    client = undefined;
    from.end().catch(() => {});
    fail(err);
  };
  const fail = (err: Error) => {
    if (!down) events.onLost(err);
    down = true;
    const wait = Math.min(100 * 2 ** attempt++, MAX_RETRY_MS);
    retry = setTimeout(() => void connect(), wait);
    retry.unref();
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new pg.Client({ connectionString: url });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c, new Error('the LISTEN connection ended')));
    c.on('notification', (msg) => onNotify(msg.payload ?? ''));
    try {
      await c.connect();
      await c.query(`listen ${OUTBOX_CHANNEL}`);
    } catch (err) {
      c.end().catch(() => {});
      if (!closed) fail(err as Error);
      return;
    }
    if (closed) return void c.end().catch(() => {});
    client = c;
    attempt = 0;
    if (down) {
      down = false;
      events.onBack();
    }
  }

  await connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    await c?.end().catch(() => {});
  };
}
