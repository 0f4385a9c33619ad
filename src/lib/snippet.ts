import { normalizeForSearch } from '../db/dialect.js';
import { escapeHtml } from './sanitize-html.js';

/**
 * A search result's excerpt: up to 240 characters (code points) of plain text around the place where
 * the most distinct query words occur close together, matched words wrapped in <mark>, everything else
 * HTML-escaped. Matching uses the search's own normalization (NFKC, lower case), so full-width letters,
 * Japanese and Chinese match as they do in q.
 */

export const SNIPPET_CHARS = 240;
const LEAD = 60;
const MAX_HITS = 2000;

interface Hit {
  start: number;
  end: number;
  term: number;
}

/** Normalized text plus, for every UTF-16 index of it, the code-point index of the original it came from. */
function normalizedWithMap(cps: string[]): { norm: string; origin: number[] } {
  let norm = '';
  const origin: number[] = [];
  cps.forEach((cp, i) => {
    const n = normalizeForSearch(cp);
    norm += n;
    for (let k = 0; k < n.length; k++) origin.push(i);
  });
  origin.push(cps.length);
  return { norm, origin };
}

function findHits(norm: string, origin: number[], terms: string[]): Hit[] {
  const hits: Hit[] = [];
  terms.forEach((term, t) => {
    if (!term) return;
    for (let i = norm.indexOf(term); i !== -1 && hits.length < MAX_HITS; i = norm.indexOf(term, i + term.length)) {
      hits.push({ start: origin[i], end: origin[i + term.length - 1] + 1, term: t });
    }
  });
  return hits.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The hit that starts the span holding the most distinct terms (the earliest among equals). */
function bestStart(hits: Hit[], span: number): number {
  let best = hits[0].start;
  let bestCount = 0;
  for (let i = 0, j = 0; i < hits.length; i++) {
    while (j < hits.length && hits[j].start < hits[i].start + span) j++;
    const count = new Set(hits.slice(i, j).map((h) => h.term)).size;
    if (count > bestCount) [best, bestCount] = [hits[i].start, count];
  }
  return best;
}

/** Excerpt of `text` around the best match of `terms` (normalized search terms); null when none matches. */
export function snippet(text: string, terms: string[], max = SNIPPET_CHARS): string | null {
  const cps = Array.from(text.replace(/\s+/g, ' ').trim());
  const { norm, origin } = normalizedWithMap(cps);
  const hits = findHits(norm, origin, terms);
  if (hits.length === 0) return null;
  let from = Math.max(0, bestStart(hits, max - LEAD) - LEAD);
  // Start at a word boundary when one is near, so the excerpt does not open mid-word.
  if (from > 0) {
    const space = cps.slice(from, from + 15).indexOf(' ');
    if (space !== -1 && from + space + 1 < hits.find((h) => h.start >= from)!.start) from += space + 1;
  }
  let to = Math.min(cps.length, from + max);
  if (to - from < max) from = Math.max(0, to - max);
  const lead = from > 0 ? '…' : '';
  const tail = to < cps.length ? '…' : '';
  if (lead) from++;
  if (tail) to--;
  let out = lead;
  let at = from;
  for (const h of hits) {
    const s = Math.max(h.start, at);
    const e = Math.min(h.end, to);
    if (e <= s) continue;
    out += escapeHtml(cps.slice(at, s).join('')) + '<mark>' + escapeHtml(cps.slice(s, e).join('')) + '</mark>';
    at = e;
  }
  return out + escapeHtml(cps.slice(at, to).join('')) + tail;
}

/** The first of `texts` that matches, excerpted; else the start of the first non-empty one, escaped. */
export function bestSnippet(texts: (string | null | undefined)[], terms: string[]): string {
  for (const t of texts) {
    const s = t ? snippet(t, terms) : null;
    if (s !== null) return s;
  }
  const first = Array.from((texts.find((t) => t && t.trim()) ?? '').replace(/\s+/g, ' ').trim());
  return escapeHtml(first.slice(0, SNIPPET_CHARS).join(''));
}
