/**
 * The tokens `sheet_tokens_of` (migration 026) gives a search text, computed in JavaScript: the
 * PostgreSQL function spends ~175 µs of a database core on a sheet of ~650 characters (two
 * regexp_matches with large character classes, generate_series, array_agg distinct), this ~10-20 µs.
 * The background indexer (pg-token-indexer.ts) sends these; the database still sorts and deduplicates
 * them under "C", so the stored array is the function's. test/pg-tokenize.test.ts holds the two equal
 * over random texts. Positions and lengths count code points, as PostgreSQL's substr does.
 */
const WORD_RUN =
  /[^\u0001-\u002f\u003a-\u0040\u005b-\u005e\u0060\u007b-\u00bf\u00d7\u00f7\u2000-\u206f\u3000-\u303f\ufeff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/gu;
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/gu;
/** Runs longer than this are cut in one pass (the function's second branch of each kind). */
const LONG_RUN = 1024;

export function sheetTokensOf(text: string): string[] {
  const tokens = new Set<string>();
  for (const match of text.matchAll(WORD_RUN)) {
    const run = Array.from(match[0]);
    if (run.length <= LONG_RUN) {
      // substr(run, i, 64) for i in 1, 33, ... up to greatest(length - 32, 1)
      for (let i = 0; i <= Math.max(run.length - 33, 0); i += 32) tokens.add(run.slice(i, i + 64).join(''));
    } else {
      // pieces of 32, each with the next one (the last alone)
      for (let i = 0; i < run.length; i += 32) tokens.add(run.slice(i, i + 64).join(''));
    }
  }
  for (const match of text.matchAll(CJK_RUN)) {
    const run = match[0]; // all of the class is in the BMP: one code unit a character
    if (run.length <= LONG_RUN) {
      // substr(run, i, 2) and substr(run, i, 3) for i in 1 .. greatest(length - 1, 1)
      for (let i = 0; i <= Math.max(run.length - 2, 0); i++) {
        tokens.add(run.slice(i, i + 2));
        tokens.add(run.slice(i, i + 3));
      }
    } else {
      for (let i = 0; i < run.length; i++) {
        tokens.add(run.slice(i, i + 2));
        tokens.add(run.slice(i, i + 3));
      }
    }
  }
  return [...tokens];
}
