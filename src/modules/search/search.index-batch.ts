import type { Kysely } from 'kysely';
import { QUEUE_KINDS_OF, readRecords, toDoc, type QueueKind } from './search.documents.js';
import type { SearchAdapter } from './search.engine.js';

export interface QueuedRecord {
  seq: number | string;
  kind: QueueKind;
  record_id: string;
}

/**
 * Indexes the records of a batch of queue rows inside `trx`: reads each record as it is now, writes its
 * words, and removes the records that are gone (or trashed). On PostgreSQL the event loop runs it; on
 * SQLite the search index thread (search-index.worker.ts), whose connection attaches the index file.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function indexRecords(trx: Kysely<any>, adapter: SearchAdapter, queued: QueuedRecord[]): Promise<void> {
  const byKind = new Map<QueueKind, Set<string>>();
  for (const q of queued) {
    if (!QUEUE_KINDS_OF[q.kind]) continue;
    let ids = byKind.get(q.kind);
    if (!ids) byKind.set(q.kind, (ids = new Set()));
    ids.add(q.record_id);
  }
  for (const [kind, ids] of byKind) {
    const records = await readRecords(trx, kind, [...ids]);
    const present = new Set(records.map((r) => r.id));
    const removed = [...ids].filter((id) => !present.has(id)).map((record_id) => ({ record_id, kinds: QUEUE_KINDS_OF[kind] }));
    // A knowledge entry's kind never changes, but remove the other kind's row anyway (cheap, and exact).
    await adapter.write(trx, records.map(toDoc), removed);
  }
}
