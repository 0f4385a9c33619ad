import { normalizeForSearch } from './search-text.js';
import { escapeHtml } from '../../../lib/sanitize-html.js';

/**
 * A search result's excerpt: up to 240 characters (code points) of plain text around the place where
 * the most distinct query words occur close together, matched words wrapped in <mark>, everything else
 * HTML-escaped. Matching uses the search's own normalization (NFKC, lower case), so full-width letters,
 * Japanese and Chinese match as they do in q.
 */

export const SNIPPET_CHARS = 240;
const LEAD = 60;
// Per term: bounds the work on a huge column while a common word still leaves room for the others.
const MAX_HITS = 20_000;

interface Hit {
  start: number;
  end: number;
  term: number;
}

/** A code point that joins the one before it when normalized (combining marks, half-width kana voicing marks). */
const JOINS_PREVIOUS = /^[\p{M}\uFF9E\uFF9F]$/u;
/** No code point below the first combining mark (U+0300) joins the one before it. */
const joinsPrevious = (cp: string) => cp.charCodeAt(0) >= 0x300 && JOINS_PREVIOUS.test(cp);

/**
 * normalizeForSearch of one character and its marks, remembered: a text repeats few distinct
 * characters, and normalizing each one afresh was most of a search page's snippet time (50 excerpts of
 * 2 KB: ~15 ms). Bounded; cleared when full.
 */
const normalizedCluster = new Map<string, string>();
function normalizeCluster(cluster: string): string {
  let n = normalizedCluster.get(cluster);
  if (n === undefined) {
    n = normalizeForSearch(cluster);
    if (normalizedCluster.size >= 20_000) normalizedCluster.clear();
    normalizedCluster.set(cluster, n);
  }
  return n;
}

/**
 * Characters that normalizeForSearch turns into one UTF-16 unit (and one code point) of their own:
 * ASCII (lower-cased), kana, the CJK ideographs, the ideographic comma and full stop and the corner
 * brackets (checked for every one of them in test/unit/snippet.test.ts). A text made only of these needs
 * no map: index i of the normalized text is code point i of the original. Most notes are such texts,
 * and mapping them character by character was half of a 50-result search page's time on the main
 * thread (~3.4 of ~9 ms for 2 KB notes).
 */
export const POSITIONAL_RANGES: [number, number][] = [
  [0x00, 0x7f],
  [0x3001, 0x3002],
  [0x300c, 0x300f],
  [0x3041, 0x3096],
  [0x30a1, 0x30fa],
  [0x30fc, 0x30fc],
  [0x4e00, 0x9fff],
];
const hex = (cp: number) => `\\u{${cp.toString(16)}}`;
const POSITIONAL_TEXT = new RegExp(`^[${POSITIONAL_RANGES.map(([a, b]) => `${hex(a)}-${hex(b)}`).join('')}]*$`, 'u');

/** Where the normalized text's UTF-16 unit i came from: the original's code points [startOf(i), endOf(i)). */
interface NormalizedText {
  norm: string;
  startOf(i: number): number;
  endOf(i: number): number;
}

/**
 * Normalized text plus, for every UTF-16 index of it, the code-point range of the original it came
 * from. A base character is normalized together with the marks that follow it (ﾃﾞ is デ, e + U+0301
 * is é), as the search normalizes whole texts.
 */
function normalizedWithMap(cps: string[], flat: string): NormalizedText {
  if (POSITIONAL_TEXT.test(flat)) return { norm: flat.toLowerCase(), startOf: (i) => i, endOf: (i) => i + 1 };
  const parts: string[] = [];
  const origin: number[] = [];
  const originEnd: number[] = [];
  for (let i = 0; i < cps.length;) {
    let j = i + 1;
    while (j < cps.length && joinsPrevious(cps[j])) j++;
    const n = normalizeCluster(j === i + 1 ? cps[i] : cps.slice(i, j).join(''));
    parts.push(n);
    for (let k = 0; k < n.length; k++) {
      origin.push(i);
      originEnd.push(j);
    }
    i = j;
  }
  origin.push(cps.length);
  originEnd.push(cps.length);
  return { norm: parts.join(''), startOf: (i) => origin[i], endOf: (i) => originEnd[i] };
}

/** Every occurrence of every term, at most MAX_HITS per term so a common first word cannot hide the others. */
function findHits({ norm, startOf, endOf }: NormalizedText, terms: string[]): Hit[] {
  const hits: Hit[] = [];
  terms.forEach((term, t) => {
    if (!term) return;
    let found = 0;
    for (let i = norm.indexOf(term); i !== -1 && found < MAX_HITS; i = norm.indexOf(term, i + term.length), found++) {
      hits.push({ start: startOf(i), end: endOf(i + term.length - 1), term: t });
    }
  });
  return hits.sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * Where the excerpt's span starts: among the spans holding the most distinct terms, the middle of the
 * first run of such spans, so the words found sit inside the excerpt rather than at its edge.
 */
function bestStart(hits: Hit[], span: number): number {
  // Distinct terms of the span starting at each hit, by a sliding window (linear in the hits).
  const distinct: number[] = [];
  const inWindow = new Map<number, number>();
  for (let i = 0, j = 0; i < hits.length; i++) {
    for (; j < hits.length && hits[j].start < hits[i].start + span; j++) inWindow.set(hits[j].term, (inWindow.get(hits[j].term) ?? 0) + 1);
    distinct.push(inWindow.size);
    const left = inWindow.get(hits[i].term)! - 1;
    if (left === 0) inWindow.delete(hits[i].term);
    else inWindow.set(hits[i].term, left);
  }
  const bestCount = distinct.reduce((a, b) => Math.max(a, b), 0);
  const first = distinct.indexOf(bestCount);
  let last = first;
  while (last + 1 < hits.length && distinct[last + 1] === bestCount) last++;
  return Math.floor((hits[first].start + hits[last].start) / 2);
}

/** Excerpt of `text` around the best match of `terms` (normalized search terms); null when none matches. */
export function snippet(text: string, terms: string[], max = SNIPPET_CHARS): string | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cps = Array.from(flat);
  const hits = findHits(normalizedWithMap(cps, flat), terms);
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
