import { CJK_RANGES, SEPARATOR_RANGES } from './pg-token-index.js';

/**
 * The tokens `sheet_tokens_of` (migration 026) gives a search text, computed in JavaScript: the
 * PostgreSQL function spends ~175 µs of a database core on a sheet of ~650 characters (two
 * regexp_matches with large character classes, generate_series, array_agg distinct), this ~30 µs for
 * 1,400 characters.
 * The background indexer (pg-token-indexer.ts) sends these; the database still sorts and deduplicates
 * them under "C", so the stored array is the function's. test/api/pg-tokenize.test.ts holds the two equal
 * over random texts. Positions and lengths count code points, as PostgreSQL's substr does.
 */
/** Runs longer than this are cut in one pass (the function's second branch of each kind). */
const LONG_RUN = 1024;

const SEPARATOR = 0;
const WORD = 1;
const CJK = 2;
/**
 * The class of each UTF-16 code unit, from the ranges the SQL tokenizer and the planner use
 * (pg-token-index.ts; any other character is a word character, surrogates and U+0000 included). A scan
 * over this table instead of two regular expressions with large Unicode classes: the bench's
 * 1,400-character sheet in ~31 µs where the expressions took ~52.
 */
const CLASS = new Uint8Array(0x10000).fill(WORD);
for (const [from, to] of SEPARATOR_RANGES) CLASS.fill(SEPARATOR, from, to + 1);
for (const [from, to] of CJK_RANGES) CLASS.fill(CJK, from, to + 1);

export function sheetTokensOf(text: string): string[] {
  const tokens = new Set<string>();
  for (let start = 0; start < text.length;) {
    const kind = CLASS[text.charCodeAt(start)];
    let end = start + 1;
    while (end < text.length && CLASS[text.charCodeAt(end)] === kind) end++;
    if (kind === WORD) addWordTokens(tokens, text.slice(start, end));
    else if (kind === CJK) addCjkTokens(tokens, text.slice(start, end));
    start = end;
  }
  return [...tokens];
}

function addWordTokens(tokens: Set<string>, word: string) {
  // Up to 33 code units is up to 33 characters: one token, the run itself (most words).
  if (word.length <= 33) {
    tokens.add(word);
    return;
  }
  const run = Array.from(word);
  if (run.length <= LONG_RUN) {
    // substr(run, i, 64) for i in 1, 33, ... up to greatest(length - 32, 1)
    for (let i = 0; i <= Math.max(run.length - 33, 0); i += 32) tokens.add(run.slice(i, i + 64).join(''));
  } else {
    // pieces of 32, each with the next one (the last alone)
    for (let i = 0; i < run.length; i += 32) tokens.add(run.slice(i, i + 64).join(''));
  }
}

/** All of the CJK class is in the BMP: one code unit a character. */
function addCjkTokens(tokens: Set<string>, run: string) {
  // substr(run, i, 2) and substr(run, i, 3) for i in 1 .. greatest(length - 1, 1); past LONG_RUN every
  // position, each with the one or two after it.
  const last = run.length <= LONG_RUN ? Math.max(run.length - 2, 0) : run.length - 1;
  for (let i = 0; i <= last; i++) {
    tokens.add(run.slice(i, i + 2));
    tokens.add(run.slice(i, i + 3));
  }
}
