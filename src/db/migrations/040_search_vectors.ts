import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Optional semantic search (issue 55 point 4, docs/search.md "Semantic search"): one embedding per
 * indexed record, written only when the operator configures an embeddings endpoint
 * (EMBEDDINGS_URL, EMBEDDINGS_MODEL); without it the table stays empty.
 *
 * search_vectors: kind and record id (as search_docs names them), the owner key when embedded, the
 * model and dimensions that made the vector, the vector itself (SQLite: a BLOB of little-endian
 * float32; PostgreSQL: real[], no extension needed), and the record's updated_at when embedded (a
 * newer search_docs.updated_at, another owner or another model means embed again). Derived from the
 * records: it is never copied, and can be dropped and rebuilt.
 *
 * Frozen text: a later change is a new migration, never an edit here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql
    .raw(`create table search_vectors (
      kind text not null, record_id text not null, owner_key text not null, model text not null,
      dims integer not null, vector ${pg ? 'real[]' : 'blob'} not null, updated_at text not null,
      primary key (record_id, kind))`)
    .execute(db);
  await sql`create index search_vectors_owner on search_vectors (owner_key, updated_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('down migrations are not supported');
}
