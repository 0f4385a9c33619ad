/**
 * Search text and terms as both dialects see them: pure string work, no SQL. Stored search_text and
 * query terms both go through normalizeForSearch, so matching is case-insensitive everywhere.
 */

/** Text as search sees it: Unicode-normalized (full-width -> half-width) and lower-cased. */
export function normalizeForSearch(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Splits a query into terms; every term must occur (substring match, so CJK words of any length work). */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  return normalizeForSearch(q)
    .split(/\s+/u)
    .filter((t) => t.length > 0)
    .slice(0, 10);
}

const codePoints = (t: string) => [...t].length;
/** A term with control characters: no index answers it, it keeps the LIKE. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
export const hasControl = (t: string) => /[\u0000-\u001f]/u.test(t);
/** A 1-2 character term: the trigram index holds no term that short, so its plan reads the index's vocabulary. */
export const isShortTerm = (t: string) => !hasControl(t) && codePoints(t) < 3;

/** Terms whose plan reads the index's vocabulary (1-2 characters) on SQLite. */
export const hasShortTerm = (terms: string[]) => terms.some(isShortTerm);
