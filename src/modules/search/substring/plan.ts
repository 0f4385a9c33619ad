import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { hasControl, isShortTerm } from './search-text.js';
import { sqliteReaders } from '../../../db/sqlite/sqlite-readers.js';
import type { SearchIndex } from './search-index.js';

/** Most trigrams a one- or two-character term may expand to before that term falls back to LIKE. */
const MAX_SHORT_TERM_EXPANSION = 2000;
/**
 * A short term's OR of trigrams reads its (document, trigram) postings, ~0.6 µs each with bm25 over
 * them; the LIKE it replaces reads every row, ~4 µs each. So the OR wins up to about six postings per
 * row of the table; past four per row the term keeps the LIKE. Measured at 100,000 sheets: `会議` (1.2
 * postings per row) 92 ms ranked against 500 ms for the LIKE; `e` (39 per row) 3.2 s against 380 ms.
 */
const MAX_SHORT_TERM_POSTINGS_PER_ROW = 4;
const ftsString = (t: string) => `"${t.replace(/"/g, '""')}"`;

/**
 * SQLite: which terms the FTS index answers (one MATCH expression) and which keep the LIKE.
 * `indexMisses`: a short term starts no indexed trigram, so only rows not indexed yet can hold it.
 */
export interface TermPlan {
  match?: string;
  like: string[];
  indexMisses: boolean;
}

/** `shortTermsByLike`: 1-2 character terms keep the LIKE, so the plan reads nothing before the statement. */
export interface PlanOptions {
  shortTermsByLike?: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function planTerms(db: Kysely<any>, index: SearchIndex, terms: string[], opts: PlanOptions = {}): Promise<TermPlan> {
  const match: string[] = [];
  const like: string[] = [];
  let indexMisses = false;
  let rows: number | undefined;
  for (const term of terms) {
    if (hasControl(term)) like.push(term);
    else if (!isShortTerm(term)) match.push(ftsString(term));
    else if (opts.shortTermsByLike) like.push(term);
    else {
      const vocabulary = sql<{ term: string; doc: number }>`select term, doc from ${sql.table(index.vocab)} where term >= ${term} and term < ${`${term}\u{10ffff}`} limit ${MAX_SHORT_TERM_EXPANSION + 1}`;
      const trigrams = await onIndexReader(db, vocabulary.compile(db));
      if (trigrams.length === 0) {
        // No indexed row holds the term: the MATCH is never run, only the queue is searched.
        indexMisses = true;
        match.push(ftsString(term));
        continue;
      }
      const postings = trigrams.reduce((n, r) => n + Number(r.doc), 0);
      rows ??= await tableSizeEstimate(db, index);
      if (trigrams.length > MAX_SHORT_TERM_EXPANSION || postings > MAX_SHORT_TERM_POSTINGS_PER_ROW * rows) like.push(term);
      else match.push(`(${trigrams.map((r) => ftsString(r.term)).join(' OR ')})`);
    }
  }
  return { match: match.length > 0 ? match.join(' AND ') : undefined, like, indexMisses };
}

/** The table's largest rowid: its row count or more (deleted rows leave gaps), read from the end of the primary key. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export async function tableSizeEstimate(db: Kysely<any>, index: SearchIndex): Promise<number> {
  const { rows } = await sql<{ n: number | null }>`select max(rowid) as n from ${sql.table(index.table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Runs a read of the index file on a reader thread: only those connections attach it. On the event
 * loop's connection the attached file cost every write a wait (sqlite-index-file.ts, attachSearchIndex).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
async function onIndexReader<R>(db: Kysely<any>, query: CompiledQuery<R>): Promise<R[]> {
  const readers = sqliteReaders(db);
  if (!readers) throw new Error('the SQLite search index is read on reader threads: open the database with openDatabase');
  return readers.all(query);
}
