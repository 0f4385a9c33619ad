import { sql, type Kysely } from 'kysely';
import { WEIGHTS, type Candidate, type EngineQuery, type SearchAdapter, type SearchDoc } from './search.engine.js';

/**
 * SQLite: search_docs (one row per record) and the FTS5 table search_fts beside it (rowid = doc_id,
 * columns title, err, meta, body), contentless: it holds the words the application tokenized, joined
 * by spaces; unicode61 splits them on the spaces only (every word is letters and digits). Ranked by
 * FTS5's bm25() with the field weights of WEIGHTS; the words are ORed, so none is required.
 */
const join = (terms: string[]) => terms.join(' ');
const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;

export const sqliteSearch: SearchAdapter = {
  async write(trx, docs, removed) {
    for (const r of removed) {
      const ids = (await sql<{ doc_id: number }>`select doc_id from search_docs where record_id = ${r.record_id} and kind in (${sql.join(r.kinds)})`.execute(trx)).rows;
      for (const { doc_id } of ids) {
        await sql`delete from search_fts where rowid = ${doc_id}`.execute(trx);
        await sql`delete from search_docs where doc_id = ${doc_id}`.execute(trx);
      }
    }
    for (const d of docs) await writeDoc(trx, d);
  },

  async query(db, q) {
    const where = filters(q);
    const match = q.terms.map(quote).join(' OR ');
    const { title, err, meta, body } = WEIGHTS;
    const rows = await sql<Candidate>`select d.kind, d.record_id, d.owner_key, d.project, d.title, d.updated_at,
        -bm25(search_fts, ${sql.lit(title)}, ${sql.lit(err)}, ${sql.lit(meta)}, ${sql.lit(body)}) as rel
      from search_fts join search_docs as d on d.doc_id = search_fts.rowid
      where search_fts match ${match} and ${where}
      order by rel desc limit ${q.window}`.execute(db);
    const total = await sql<{ n: number }>`select count(*) as n from search_fts join search_docs as d on d.doc_id = search_fts.rowid
      where search_fts match ${match} and ${where}`.execute(db);
    return { candidates: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
  },
};

function filters(q: EngineQuery) {
  const parts = [sql`d.owner_key in (${sql.join(q.ownerKeys)})`, sql`d.kind in (${sql.join(q.kinds)})`];
  if (q.project !== undefined) parts.push(sql`d.project = ${q.project}`);
  return sql.join(parts, sql` and `);
}

async function writeDoc(trx: Kysely<any>, d: SearchDoc): Promise<void> {
  const found = (await sql<{ doc_id: number }>`select doc_id from search_docs where record_id = ${d.record_id} and kind = ${d.kind}`.execute(trx)).rows[0];
  let docId: number;
  if (found) {
    docId = found.doc_id;
    await sql`delete from search_fts where rowid = ${docId}`.execute(trx);
    await sql`update search_docs set owner_key = ${d.owner_key}, project = ${d.project}, title = ${d.title}, updated_at = ${d.updated_at} where doc_id = ${docId}`.execute(trx);
  } else {
    const inserted = await sql<{ doc_id: number }>`insert into search_docs (kind, record_id, owner_key, project, title, updated_at)
      values (${d.kind}, ${d.record_id}, ${d.owner_key}, ${d.project}, ${d.title}, ${d.updated_at}) returning doc_id`.execute(trx);
    docId = inserted.rows[0].doc_id;
  }
  const t = d.terms;
  await sql`insert into search_fts (rowid, title, err, meta, body) values (${docId}, ${join(t.title)}, ${join(t.err)}, ${join(t.meta)}, ${join(t.body)})`.execute(trx);
}
