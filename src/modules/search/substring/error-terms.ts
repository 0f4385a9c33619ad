import { normalizeForSearch, searchTerms } from './search-text.js';

/** Words that occur in nearly every error message and say nothing about which one it is. */
const STOP_WORDS = new Set('a an and are as at be but by can cannot could did do does for from has have if in into is it its no not of on or that the this to was were will with'.split(' '));
const MAX_TERMS = 24;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export interface ErrorSearch {
  terms: string[];
  /** How many of the terms an entry must contain; entries with more rank first. */
  minMatches: number;
}

/**
 * A pasted error message (`SqliteError: database is locked (code SQLITE_BUSY)`) carries words the saved
 * solution does not: its words are the terms, punctuation, numbers and stop words dropped, and an entry
 * needs two of them (all, when there are fewer), so extra codes and paths no longer hide the solution.
 */
export function errorSearchTerms(q: string | undefined): ErrorSearch {
  const words = normalizeForSearch(q ?? '')
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((w) => (w.length > 1 || CJK.test(w)) && !STOP_WORDS.has(w) && !/^\d+$/.test(w));
  const terms = [...new Set(words)].slice(0, MAX_TERMS);
  // Only punctuation, numbers or stop words: match the text as typed, every term required.
  if (terms.length === 0) {
    const typed = searchTerms(q);
    return { terms: typed, minMatches: typed.length };
  }
  return { terms, minMatches: Math.min(2, terms.length) };
}
