/**
 * A trigram search index over a table's search_text: the FTS5 table and its fts5vocab table (in the
 * index file, see sqlite-index-file.ts), the SQLite partial index of live rows by owner that search totals
 * use (migration 010), and the queue of rows written since they were last indexed (migration 033).
 */
export interface SearchIndex {
  table: string;
  /** Schema-qualified: in a statement it is aliased, and its hidden column is named after the table (ftsColumn). */
  fts: string;
  vocab: string;
  liveByOwner: string;
  pending: string;
}

export const SHEETS_SEARCH: SearchIndex = { table: 'sheets', fts: 'search_index.sheets_fts', vocab: 'search_index.sheets_fts_terms', liveByOwner: 'sheets_live_owner', pending: 'sheets_search_queue' };

/** The FTS5 table's hidden column, named after the table: the left side of MATCH and bm25's argument. */
export const ftsColumn = (index: SearchIndex): string => index.fts.slice(index.fts.lastIndexOf('.') + 1);
