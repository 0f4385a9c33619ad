import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../../../db/dialect.js';
import { SHEET_TOKENS, VOCAB_LOCK } from './pg-token-index.js';

/**
 * Vocabulary rows read per batch. Telling whether a token is used reads its whole GIN posting list (a
 * bitmap scan cannot stop at the first hit): ~0.1 ms for a rare token, ~2.5 ms for one in 9,000 of
 * 50,000 sheets (measured: 1,000 rare tokens 110 ms, 1,000 common ones 2.6 s). Small batches keep
 * each statement short.
 */
const BATCH = 200;
/**
 * Each tick runs batches until this much time went (the event loop free between them), then waits
 * TICK_MS: at most ~2.5% of one core of the database. A pass reads every posting once, ~0.3 µs each:
 * ~12 s for 100,000 sheets of 400 tokens, so ~8 minutes of ticks.
 */
const TICK_BUDGET_MS = 250;
const TICK_MS = 10_000;
/**
 * How long a pruner waits for writers in flight to commit (they hold VOCAB_LOCK shared), and how
 * long its delete may run: writers arriving meanwhile queue behind it, so this is the longest they
 * wait. Past either, the batch is left for the next pass.
 */
const LOCK_WAIT_MS = 20;
const DELETE_MS = 100;
/** Tokens deleted per locked transaction: 200 held the lock ~37 ms (a GIN probe each), 50 ~10 ms. */
const DELETE_CHUNK = 50;

const { table, vocab, indexed } = SHEET_TOKENS;
const usedBy = (token: ReturnType<typeof sql.ref>) => sql`exists (select 1 from ${sql.table(table)} as t where ${sql.id(indexed)}(t.tokens) @> array[${token}])`;

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
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function pruneVocabBatch(db: Kysely<any>, after: string, limit = BATCH): Promise<PruneBatch> {
  const { rows } = await sql<{ token: string; used: boolean }>`select c.token, ${usedBy(sql.ref('c.token'))} as used
    from (select token from ${sql.table(vocab)} where token > ${after} order by token limit ${limit}) as c`.execute(db);
  const next = rows.length < limit ? undefined : rows[rows.length - 1].token;
  const unused = [...new Set(rows.filter((r) => !r.used).map((r) => r.token))];
  let pruned = 0;
  let skipped = false;
  for (let i = 0; i < unused.length; i += DELETE_CHUNK) {
    const n = await deleteUnused(db, unused.slice(i, i + DELETE_CHUNK));
    if (n === undefined) skipped = true;
    else pruned += n;
  }
  return { next, pruned, skipped };
}

/** Deletes those of `tokens` still unused, holding VOCAB_LOCK; undefined when it gave up (the next pass tries again). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
async function deleteUnused(db: Kysely<any>, tokens: string[]): Promise<number | undefined> {
  try {
    return await db.transaction().execute(async (trx) => {
      await sql.raw(`set local lock_timeout = '${LOCK_WAIT_MS}ms'`).execute(trx);
      await sql.raw(`set local statement_timeout = '${DELETE_MS}ms'`).execute(trx);
      await sql`select pg_advisory_xact_lock(${VOCAB_LOCK}::bigint)`.execute(trx);
      // A new statement, so a new snapshot: every writer that held the lock before has committed.
      const res = await sql`delete from ${sql.table(vocab)} as v where v.token = any(${tokens}::text[]) and not ${usedBy(sql.ref('v.token'))}`.execute(trx);
      return Number(res.numAffectedRows ?? 0);
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '55P03' || code === '57014') return undefined; // lock_not_available, query_canceled (statement timeout)
    throw err;
  }
}

/** One whole pass over the vocabulary (tests, and tools); returns how many rows went and whether some batch gave up. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
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

/** PostgreSQL: prunes the token vocabulary in the background, TICK_BUDGET_MS of batches every TICK_MS, resuming where the last tick stopped. SQLite: no-op. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function startVocabPruner(db: Kysely<any>, onError: (err: unknown) => void): VocabPruner {
  if (dialectOf(db) !== 'postgres') return { close: async () => {} };
  let after = '';
  let closed = false;
  let running: Promise<void> | undefined;
  const tick = async () => {
    const until = Date.now() + TICK_BUDGET_MS;
    while (Date.now() < until && !closed) {
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
