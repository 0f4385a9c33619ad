import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialect.js';
import { SHEET_TOKENS, VOCAB_LOCK } from './pg-token-index.js';

/** Vocabulary rows read per batch: one index range read and one GIN probe per token, a few ms. */
const BATCH = 1000;
/** Batches per tick, the event loop free between them: ~10,000 rows a tick, ~1M in 17 minutes. */
const BATCHES_PER_TICK = 10;
const TICK_MS = 10_000;
/**
 * How long a pruner waits for writers in flight to commit (they hold VOCAB_LOCK shared), and how
 * long its delete may run: writers arriving meanwhile queue behind it, so this is the longest they
 * wait. Past either, the batch is left for the next pass.
 */
const LOCK_WAIT_MS = 20;
const DELETE_MS = 100;

const { table, vocab, indexed } = SHEET_TOKENS;
const usedBy = (token: ReturnType<typeof sql.ref>) =>
  sql`exists (select 1 from ${sql.table(table)} as t where ${sql.id(indexed)}(t.tokens) @> array[${token}])`;

export interface PruneBatch {
  /** The last token read: the next batch starts after it; undefined at the end of the vocabulary. */
  next: string | undefined;
  pruned: number;
  /** The delete gave up (writers held the lock too long, or it ran too long); its tokens stay for now. */
  skipped: boolean;
}

/**
 * PostgreSQL: deletes the vocabulary rows no sheet uses among `limit` rows after `after`. The tokens
 * are chosen without a lock; then, holding VOCAB_LOCK exclusive, deleted only if still unused in a
 * new snapshot. Every writer that took the lock before is committed, so its tokens are seen; one that
 * takes it after reads the vocabulary once the delete committed, and adds back what it needs. Safe to
 * run in several processes at once (they queue on the lock).
 */
export async function pruneVocabBatch(db: Kysely<any>, after: string, limit = BATCH): Promise<PruneBatch> {
  const { rows } = await sql<{ token: string; used: boolean }>`select c.token, ${usedBy(sql.ref('c.token'))} as used
    from (select token from ${sql.table(vocab)} where token > ${after} order by token limit ${limit}) as c`.execute(db);
  const next = rows.length < limit ? undefined : rows[rows.length - 1].token;
  const unused = [...new Set(rows.filter((r) => !r.used).map((r) => r.token))];
  if (unused.length === 0) return { next, pruned: 0, skipped: false };
  try {
    const pruned = await db.transaction().execute(async (trx) => {
      await sql.raw(`set local lock_timeout = '${LOCK_WAIT_MS}ms'`).execute(trx);
      await sql.raw(`set local statement_timeout = '${DELETE_MS}ms'`).execute(trx);
      await sql`select pg_advisory_xact_lock(${VOCAB_LOCK}::bigint)`.execute(trx);
      const res = await sql`delete from ${sql.table(vocab)} as v where v.token = any(${unused}::text[]) and not ${usedBy(sql.ref('v.token'))}`.execute(trx);
      return Number(res.numAffectedRows ?? 0);
    });
    return { next, pruned, skipped: false };
  } catch (err) {
    // lock_not_available, query_canceled (statement timeout): the next pass tries again.
    if ((err as { code?: string }).code === '55P03' || (err as { code?: string }).code === '57014') return { next, pruned: 0, skipped: true };
    throw err;
  }
}

/** One whole pass over the vocabulary (tests, and tools); returns how many rows went and whether some batch gave up. */
export async function pruneVocab(db: Kysely<any>, limit = BATCH): Promise<{ pruned: number; skipped: boolean }> {
  let after: string | undefined = '';
  let pruned = 0;
  let skipped = false;
  while (after !== undefined) {
    const batch: PruneBatch = await pruneVocabBatch(db, after, limit);
    pruned += batch.pruned;
    skipped ||= batch.skipped;
    after = batch.next;
  }
  return { pruned, skipped };
}

export interface VocabPruner {
  close(): Promise<void>;
}

/** PostgreSQL: prunes the token vocabulary in the background, BATCHES_PER_TICK batches every TICK_MS, resuming where the last tick stopped. SQLite: no-op. */
export function startVocabPruner(db: Kysely<any>, onError: (err: unknown) => void): VocabPruner {
  if (dialectOf(db) !== 'postgres') return { close: async () => {} };
  let after = '';
  let closed = false;
  let running: Promise<void> | undefined;
  const tick = async () => {
    for (let i = 0; i < BATCHES_PER_TICK && !closed; i++) {
      const batch = await pruneVocabBatch(db, after);
      after = batch.next ?? '';
      if (batch.next === undefined) break;
    }
  };
  const timer = setInterval(() => {
    if (running || closed) return;
    running = tick()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, TICK_MS);
  timer.unref();
  return {
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
