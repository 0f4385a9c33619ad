import type { Kysely } from 'kysely';
import { queueKindOf, readRecords, type QueueKind, type RecordText } from './search.documents.js';
import { embed, PermanentEmbeddingError, type EmbeddingsConfig } from './search.embed-client.js';
import { dropOrphans, staleRecords, writeVector } from './search.embed-store.js';

/** Records embedded per request. */
const BATCH = 16;
/** Stale records read per scan of search_docs (then embedded BATCH at a time): a backfill scans the table once per STALE_READ records, not once per request. */
const STALE_READ = 256;
/** Vectors of records no longer indexed are looked for at most this often (they are never returned meanwhile: a search joins search_docs). */
const SWEEP_EVERY_MS = 10 * 60_000;
/** A batch request may take this long (a local model on a CPU is slow). */
const BATCH_TIMEOUT_MS = 60_000;
/** After a commit, the background pass starts this much later (the indexer's ~20 ms pass goes first). */
const NUDGE_DELAY_MS = 100;
/** Retries after a failed request: waits double from the first to the cap. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 5 * 60_000;

const textOf = (t: RecordText) => [t.title, t.err, t.meta, t.body].filter((s) => s).join('\n');

/**
 * Embeds indexed records in the background, never in a request: after each commit (nudge) it lets the
 * search indexer drain first, then embeds the records whose vector is missing or stale (a newer text,
 * another owner, another model: a model change re-embeds everything, newest first), BATCH at a time,
 * one request at a time. A failed request is retried with backoff (1 s doubling to 5 min); a record the
 * endpoint refuses (a 4xx) is skipped until the process restarts or the record changes.
 */
export function createEmbedder(deps: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  db: Kysely<any>;
  config: EmbeddingsConfig;
  /** The search indexer's drain: vectors follow search_docs. */
  drainIndex: () => Promise<void>;
  onError: (err: unknown, message: string) => void;
}) {
  const { db, config } = deps;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let again = false;
  let closed = false;
  let backoff = 0;
  let swept = 0;
  /** kind:id@updated_at of records the endpoint refused. */
  const refused = new Set<string>();
  const keyOf = (t: { kind: string; id: string; updated_at: string }) => `${t.kind}:${t.id}@${t.updated_at}`;

  /** Embeds one request's worth of texts; a text the endpoint refuses gets an empty vector (skipped). */
  async function vectorsOf(todo: RecordText[]): Promise<Float32Array[]> {
    try {
      return await embed(config, todo.map(textOf), BATCH_TIMEOUT_MS);
    } catch (err) {
      if (!(err instanceof PermanentEmbeddingError)) throw err;
    }
    // One of them is refused: embed them one by one, skipping the refused.
    const vectors: Float32Array[] = [];
    for (const t of todo) {
      try {
        vectors.push((await embed(config, [textOf(t)], BATCH_TIMEOUT_MS))[0]);
      } catch (one) {
        if (!(one instanceof PermanentEmbeddingError)) throw one;
        refused.add(keyOf(t));
        deps.onError(one, `the embeddings endpoint refused ${t.kind} ${t.id}; it is left to keyword search`);
        vectors.push(new Float32Array(0));
      }
    }
    return vectors;
  }

  /** One scan for stale records, then requests of BATCH texts; how many were embedded. */
  async function round(): Promise<number> {
    const stale = await staleRecords(db, config.model, STALE_READ + refused.size);
    const byKind = new Map<QueueKind, string[]>();
    for (const s of stale) byKind.set(queueKindOf(s.kind), [...(byKind.get(queueKindOf(s.kind)) ?? []), s.record_id]);
    const wanted = new Set(stale.map((s) => `${s.kind}:${s.record_id}`));
    const texts: RecordText[] = [];
    for (const [kind, ids] of byKind) for (const t of await readRecords(db, kind, ids)) if (wanted.has(`${t.kind}:${t.id}`) && !refused.has(keyOf(t))) texts.push(t);
    let done = 0;
    for (let i = 0; i < texts.length && !closed; i += BATCH) {
      const todo = texts.slice(i, i + BATCH);
      const vectors = await vectorsOf(todo);
      for (let j = 0; j < todo.length; j++) {
        const t = todo[j];
        if (vectors[j].length === 0) continue;
        await writeVector(db, { kind: t.kind, record_id: t.id, owner_key: t.owner_key, model: config.model, updated_at: t.updated_at, vector: vectors[j] });
      }
      done += todo.length;
    }
    return done;
  }

  async function pass(): Promise<void> {
    await deps.drainIndex();
    while (!closed && (await round()) > 0);
    if (!closed && Date.now() - swept >= SWEEP_EVERY_MS) {
      await dropOrphans(db);
      swept = Date.now();
    }
  }

  function schedule(delay: number): void {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (running) {
        again = true;
        return;
      }
      running = pass()
        .then(
          () => {
            backoff = 0;
          },
          (err) => {
            backoff = Math.min(backoff ? backoff * 2 : RETRY_FIRST_MS, RETRY_MAX_MS);
            deps.onError(err, `embedding records failed; retried in ${Math.round(backoff / 1000)} s`);
            again = true;
          },
        )
        .finally(() => {
          running = undefined;
          if (again) {
            again = false;
            schedule(backoff || NUDGE_DELAY_MS);
          }
        });
    }, delay);
    timer.unref?.();
  }

  return {
    /** After a commit (and at start): a background pass soon, unless one is waiting out a failure. */
    nudge(): void {
      schedule(NUDGE_DELAY_MS);
    },
    /** True while a pass runs or is due. */
    busy: () => !!running || !!timer,
    async close(): Promise<void> {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
export type Embedder = ReturnType<typeof createEmbedder>;
