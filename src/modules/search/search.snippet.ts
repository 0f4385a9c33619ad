import { tokens } from './search.tokenize.js';

/** A search result's snippet is at most this many characters (code points). */
export const SEARCH_SNIPPET_CHARS = 300;
const LEAD = 60;

const codePoints = (s: string) => Array.from(s);

/**
 * Plain text of at most SEARCH_SNIPPET_CHARS characters around the place where the most distinct
 * query terms occur close together (terms as search.tokenize.ts makes them, so other word forms and
 * identifier parts count), whitespace collapsed, "…" where it was cut. The text's beginning when no
 * term occurs (a match in the title only).
 */
export function searchSnippet(text: string, terms: string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = codePoints(flat);
  if (chars.length <= SEARCH_SNIPPET_CHARS) return flat;
  const wanted = new Set(terms);
  const hits = tokens(flat).filter((t) => wanted.has(t.term));
  let bestStart = 0;
  if (hits.length > 0) {
    // Code-unit offsets of the hits; choose the window (by code units, close enough) with the most distinct terms.
    let best = -1;
    for (let i = 0, j = 0; i < hits.length; i++) {
      while (j < hits.length && hits[j].start - hits[i].start < SEARCH_SNIPPET_CHARS - LEAD) j++;
      const distinct = new Set(hits.slice(i, j).map((h) => h.term)).size;
      if (distinct > best) {
        best = distinct;
        bestStart = hits[i].start;
      }
    }
  }
  // From code units to code points.
  let start = codePoints(flat.slice(0, bestStart)).length;
  start = Math.max(0, start - LEAD);
  if (start > 0) {
    const space = chars.slice(start, start + 20).indexOf(' ');
    if (space >= 0) start += space + 1;
  }
  const room = SEARCH_SNIPPET_CHARS - (start > 0 ? 1 : 0);
  let piece = chars.slice(start, start + room);
  const cutEnd = start + room < chars.length;
  if (cutEnd) piece = piece.slice(0, room - 1);
  return `${start > 0 ? '…' : ''}${piece.join('')}${cutEnd ? '…' : ''}`;
}
