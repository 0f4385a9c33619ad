/**
 * A trigram search index over a table's search_text (migration 008): the FTS5 table, its fts5vocab
 * table, the SQLite partial index of live rows by owner that search totals use (migration 010), and
 * the queue of rows written since they were last indexed (migration 018, see indexPendingRows).
 */
export interface SearchIndex {
  table: string;
  fts: string;
  vocab: string;
  liveByOwner: string;
  pending: string;
}

export const SHEETS_SEARCH: SearchIndex = { table: 'sheets', fts: 'sheets_fts', vocab: 'sheets_fts_terms', liveByOwner: 'sheets_live_owner', pending: 'sheets_fts_pending' };
