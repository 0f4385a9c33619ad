import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { dot } from './search.embed-client.js';
import type { Candidate, SearchKind } from './search.engine.js';
import { readIndex } from './search.sqlite.js';

/**
 * search_vectors (migration 040): one embedding per indexed record. SQLite keeps a vector as a BLOB
 * of float32, PostgreSQL as real[] (pgvector is not required); similarity is computed in the
 * application, by brute force over the searched owners' most recent MAX_VECTORS vectors.
 */

/** A search compares the query with at most this many vectors (the most recently updated records of the owners searched); EMBEDDINGS_MAX_VECTORS. */
export const MAX_VECTORS = 20_000;

export interface Stale {
  kind: SearchKind;
  record_id: string;
}

/** The index's records table: on SQLite in the search index file, read on the reader threads (search.sqlite.ts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
const docsTable = (db: Kysely<any>) => sql.raw(dialectOf(db) === 'postgres' ? 'search_docs' : 'search_index.search_docs');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
const readDocs = async <R>(db: Kysely<any>, query: RawBuilder<R>): Promise<R[]> => (dialectOf(db) === 'postgres' ? (await query.execute(db)).rows : readIndex(db, query));

const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** SQLite: the BLOB as written (little-endian float32, as Float32Array lays it out on every platform node runs on). */
function fromBlob(raw: Uint8Array): Float32Array {
  const n = Math.floor(raw.byteLength / 4);
  // A Float32Array needs a 4-byte aligned offset: read in place when it is, else from a copy.
  return raw.byteOffset % 4 === 0 ? new Float32Array(raw.buffer, raw.byteOffset, n) : new Float32Array(new Uint8Array(raw).buffer, 0, n);
}

/**
 * PostgreSQL: real[] read as array_send()'s binary form (header: dimensions, flags, element type,
 * length, lower bound; then per element a 4-byte length and a big-endian float4). Reading the text form
 * instead took 22-30 s for 20,000 vectors of 768 dimensions (pg parses each number), this 3-4 s.
 */
function fromArraySend(raw: Uint8Array): Float32Array {
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  if (raw.byteLength < 20 || dv.getInt32(0) !== 1) return new Float32Array(0);
  const n = dv.getInt32(12);
  const out = new Float32Array(n);
  for (let i = 0, at = 20; i < n; i++, at += 8) out[i] = dv.getInt32(at) === 4 ? dv.getFloat32(at + 4) : 0;
  return out;
}

/** Indexed records without a current vector for `model` (none, an older text, another owner or model), newest first. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function staleRecords(db: Kysely<any>, model: string, limit: number): Promise<Stale[]> {
  return readDocs(
    db,
    sql<Stale>`select d.kind, d.record_id from ${docsTable(db)} as d
    left join search_vectors as v on v.record_id = d.record_id and v.kind = d.kind
    where v.record_id is null or v.model <> ${model} or v.updated_at <> d.updated_at or v.owner_key <> d.owner_key
    order by d.updated_at desc limit ${limit}`,
  );
}

export async function writeVector(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  db: Kysely<any>,
  row: { kind: SearchKind; record_id: string; owner_key: string; model: string; updated_at: string; vector: Float32Array },
): Promise<void> {
  const value = dialectOf(db) === 'postgres' ? sql`${Array.from(row.vector)}::real[]` : sql`${toBlob(row.vector)}`;
  await sql`insert into search_vectors (kind, record_id, owner_key, model, dims, vector, updated_at)
    values (${row.kind}, ${row.record_id}, ${row.owner_key}, ${row.model}, ${row.vector.length}, ${value}, ${row.updated_at})
    on conflict (record_id, kind) do update set owner_key = excluded.owner_key, model = excluded.model, dims = excluded.dims,
      vector = excluded.vector, updated_at = excluded.updated_at`.execute(db);
}

/** Vectors of records no longer indexed (deleted, trashed): removed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function dropOrphans(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`delete from search_vectors where not exists
      (select 1 from search_docs as d where d.record_id = search_vectors.record_id and d.kind = search_vectors.kind)`.execute(db);
    return;
  }
  // SQLite: the index is in another file, which the event loop's connection does not attach: read there, delete here.
  const orphans = await readIndex(
    db,
    sql<Stale>`select v.kind, v.record_id from search_vectors as v where not exists
      (select 1 from search_index.search_docs as d where d.record_id = v.record_id and d.kind = v.kind)`,
  );
  for (let i = 0; i < orphans.length; i += ORPHANS_PER_DELETE) {
    const some = orphans.slice(i, i + ORPHANS_PER_DELETE).map((o) => sql`(${o.record_id}, ${o.kind})`);
    await sql`delete from search_vectors where (record_id, kind) in (values ${sql.join(some)})`.execute(db);
  }
}
const ORPHANS_PER_DELETE = 400;

/**
 * The `window` records nearest to `query` among the given owners, kinds and project: candidates as the
 * keyword engine gives them, `rel` being the cosine similarity. Reach is read from search_docs (kept
 * current before each search), so a record moved or deleted is filtered as the keyword search filters it.
 */
export async function nearest(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  db: Kysely<any>,
  q: { vector: Float32Array; model: string; ownerKeys: string[]; kinds: SearchKind[]; project?: string; window: number; maxVectors?: number },
): Promise<Candidate[]> {
  const where = [sql`d.owner_key in (${sql.join(q.ownerKeys)})`, sql`d.kind in (${sql.join(q.kinds)})`, sql`v.model = ${q.model}`, sql`v.dims = ${q.vector.length}`];
  if (q.project !== undefined) where.push(sql`d.project = ${q.project}`);
  const pg = dialectOf(db) === 'postgres';
  const column = pg ? sql`array_send(v.vector)` : sql`v.vector`;
  const rows = await readDocs(
    db,
    sql<Omit<Candidate, 'rel'> & { vector: Uint8Array }>`select d.kind, d.record_id, d.owner_key, d.project, d.title, d.updated_at, ${column} as vector
    from search_vectors as v join ${docsTable(db)} as d on d.record_id = v.record_id and d.kind = v.kind
    where ${sql.join(where, sql` and `)} order by d.updated_at desc limit ${q.maxVectors ?? MAX_VECTORS}`,
  );
  const scored: Candidate[] = [];
  for (const { vector, ...r } of rows) {
    const v = pg ? fromArraySend(vector) : fromBlob(vector);
    const rel = v.length === q.vector.length ? dot(q.vector, v) : 0;
    // Opposite or unrelated (similarity 0 or less): not a match.
    if (rel > 0) scored.push({ ...r, rel });
  }
  return scored.sort((a, b) => b.rel - a.rel).slice(0, q.window);
}

/** Vectors stored for `model` (what the tests and `npm run eval -- --embeddings` wait for). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function countVectors(db: Kysely<any>, model: string): Promise<number> {
  const r = await sql<{ n: number | string }>`select count(*) as n from search_vectors where model = ${model}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}
