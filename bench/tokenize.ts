/**
 * `npx tsx bench/tokenize.ts`: the unified search's tokenizer (src/modules/search/search.tokenize.ts) over
 * the bench's own sheets (bench/content.ts, 1-3 KB of English and Japanese HTML), as the indexer cuts each
 * written record: microseconds per record, best of five rounds. Every POST /v1/sheets pays this once, on
 * the event loop, when the search indexer takes the sheet (docs/decisions/0012-tokenizer-fast-paths.md).
 */
import { indexTerms } from '../src/modules/search/search.tokenize.js';
import { sheetSearchText } from '../src/modules/sheets/sheets.view.js';
import { rng, sheetContent } from './content.js';

const r = rng(42);
const texts = Array.from({ length: 3000 }, () => {
  const { title, content } = sheetContent(r);
  return sheetSearchText(title, content);
});
const chars = texts.reduce((n, t) => n + t.length, 0) / texts.length;
let best = Infinity;
let terms = 0;
for (let round = 0; round < 5; round++) {
  const t0 = performance.now();
  terms = 0;
  for (const t of texts) terms += indexTerms(t).length;
  best = Math.min(best, ((performance.now() - t0) / texts.length) * 1000);
}
console.log(`tokenize: ${best.toFixed(1)} µs per record (best of 5 rounds of ${texts.length}; ${chars.toFixed(0)} characters, ${(terms / texts.length).toFixed(0)} terms each)`);
