/**
 * How the unified search (GET /v1/search) sees text: one tokenizer for records and queries, pure
 * string work, so the SQLite and PostgreSQL adapters index and match the same terms.
 *
 * - Text is NFKC-normalized; Latin words are lower-cased and lightly stemmed (migrate, migrated,
 *   migrating, migration -> migrat), so other word forms match.
 * - Identifiers split: `jwtVerify` gives jwtverify, jwt and verify; `busy_timeout` busy and timeout;
 *   `src/auth/middleware.ts` src, auth, middleware and ts; `TS2345` ts2345, ts and 2345. A pasted
 *   stack line or error code matches the words it is made of.
 * - Japanese, Chinese and Korean: each run of one script (kanji, hiragana, katakana, hangul) gives its
 *   overlapping two-character pieces, and the single characters of a record, so a two-character word
 *   (認証) and a one-character query (鍵) both match. Runs split where the script changes, so the
 *   particles between kanji words (を, の, は) do not glue them together.
 * - Stop words are dropped from queries (unless the query is nothing else), never from records.
 */

const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this those to was we were what when where ' +
    'which while who whom why will with would you your us about after again all am any because before being both ' +
    'during each few more most no nor not now only other out over own same she he her his should some such too under ' +
    'until up very just also did get got ever anything something thing things one ' +
    // Words that frame a question rather than name its subject.
    'remind reason back left still need handle handles pending status far along done side days use using used there open please tell know'
  ).split(' '),
);

/** Words the stemmer leaves alone (too short or would be mangled). */
const KEEP = new Set(['this', 'has', 'was', 'is', 'its', 'does', 'yes', 'bus', 'gas', 'css', 'js', 'ts', 'less', 'sass', 'redis', 'postgres', 'kubernetes', 'ios', 'macos', 'aws', 'dns', 'https', 'tls', 'ssl']);

const isVowel = (c: string) => 'aeiou'.includes(c);

/**
 * A light English stemmer (in the spirit of Porter's first steps): plural and -ed/-ing/-ion/-ment
 * endings, a final e, y -> i, a doubled final consonant. Conservative: a stem keeps 3 letters at least.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 2 || KEEP.has(w) || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}i`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) {
    /* keep */
  } else if (w.endsWith('s') && w.length > 3) w = w.slice(0, -1);
  for (const [suffix, least] of SUFFIXES) {
    if (w.endsWith(suffix) && w.length - suffix.length >= least && /[aeiouy]/.test(w.slice(0, -suffix.length))) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.endsWith('e') && w.length > 2) w = w.slice(0, -1);
  // migrate, migrated, migration -> migr (and configure, configuration -> configur).
  if (w.endsWith('at') && w.length >= 6) w = w.slice(0, -2);
  if (w.endsWith('y') && w.length > 3) w = `${w.slice(0, -1)}i`;
  const last = w[w.length - 1];
  if (w.length > 3 && last === w[w.length - 2] && !isVowel(last) && !'lsz'.includes(last)) w = w.slice(0, -1);
  return w;
}

/** Endings stripped (the first that fits), with the least stem they leave. */
const SUFFIXES: [string, number][] = [
  ['ations', 3],
  ['ation', 3],
  ['ements', 3],
  ['ement', 3],
  ['ments', 3],
  ['ment', 3],
  ['ings', 2],
  ['ing', 2],
  ['ions', 3],
  ['ion', 3],
  ['edly', 3],
  ['ed', 2],
  ['ers', 3],
  ['er', 3],
  ['ly', 3],
];

const CJK_RUN = /(\p{Script=Han}+|[\p{Script=Hiragana}ー]+|[\p{Script=Katakana}ー]+|\p{Script=Hangul}+)/u;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]/u;
// A word: a CJK run (split further below), or letters and digits of other scripts (never CJK ones:
// "CSVの文字コード" is CSV, then a Japanese run).
const PIECE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー])[\p{L}\p{N}_])+/gu;

const PLAIN_WORD = /^[a-z]+$/;

/** One token and where it came from in the text (code units), for snippets. */
export interface Token {
  term: string;
  start: number;
  end: number;
}

/** The parts of an identifier: camelCase, snake_case, letters against digits. */
function identifierParts(word: string): string[] {
  // Most words are plain lower-case letters, which have one part: the regular expressions below cost ~4x the rest of a word.
  if (PLAIN_WORD.test(word)) return [word];
  return word
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .split(/[\s_]+/)
    .filter((p) => p.length > 0);
}

function cjkTerms(run: string, singles: boolean): string[] {
  const out: string[] = [];
  for (const part of run.split(CJK_RUN).filter((p) => p.length > 0)) {
    const chars = [...part];
    if (chars.length === 1) {
      out.push(chars[0]);
      continue;
    }
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
    if (singles) out.push(...chars);
  }
  return out;
}

/**
 * The tokens of `text` with their places. `forQuery`: CJK runs give only their two-character pieces
 * (single characters would match nearly everything); records get both.
 */
export function tokens(text: string, forQuery = false): Token[] {
  const out: Token[] = [];
  eachTerm(text, forQuery, (term, start, end) => out.push({ term, start, end }));
  return out;
}

/** The terms of a record's field, in order (repeats kept: they count). */
export function indexTerms(text: string | null | undefined): string[] {
  const out: string[] = [];
  if (text) eachTerm(text, false, (term) => out.push(term));
  return out;
}

/** Calls `emit` with each term of `text` and the place (code units) of the word it came from. */
function eachTerm(text: string, forQuery: boolean, emit: (term: string, start: number, end: number) => void): void {
  const normalized = text.normalize('NFKC');
  for (const m of normalized.matchAll(PIECE)) {
    const start = m.index;
    const end = start + m[0].length;
    const word = m[0];
    if (CJK_CHAR.test(word[0])) {
      for (const term of cjkTerms(word, !forQuery)) emit(term, start, end);
      continue;
    }
    const parts = identifierParts(word);
    const whole = word.toLowerCase().replace(/_/g, '');
    if (whole.length > 0 && whole.length <= 64) emit(stemmed(whole), start, end);
    if (parts.length > 1) {
      for (const part of parts) {
        const p = part.toLowerCase();
        if (p.length > 1 && p.length <= 64) emit(stemmed(p), start, end);
      }
    }
  }
}

/**
 * stem() by memory: the words of coding notes repeat (a 1.4 KB sheet has ~200 words, most of them seen
 * before), and stemming is a dozen string tests. Bounded: cleared when full.
 */
const STEMS = new Map<string, string>();
const STEMS_MAX = 50_000;

function stemmed(word: string): string {
  let s = STEMS.get(word);
  if (s === undefined) {
    if (STEMS.size >= STEMS_MAX) STEMS.clear();
    s = stem(word);
    STEMS.set(word, s);
  }
  return s;
}

/**
 * Abbreviations and synonyms of everyday coding talk, added to a query's terms (each group is one
 * meaning; every term of a group finds the others). General, not fitted to any corpus.
 */
const SYNONYM_GROUPS = [
  'k8s kubernetes',
  'db database',
  'auth authentication authn',
  'env environment',
  'config configuration settings',
  'deps dependencies',
  'repo repository',
  'err error',
  'pkg package',
  'js javascript',
  'ts typescript',
  'py python',
  'pg postgres postgresql',
  'e2e end-to-end',
  'i18n translation localization l10n',
  'endpoint route',
  'ci pipeline',
  'bug defect',
  'docs documentation',
  'pr pull-request',
  'perf performance',
  'mail email',
  'img image',
  'msg message',
  'id identifier',
  'ui interface',
  'prod production',
];
const SYNONYMS = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) {
  const words = group.split(' ').map((w) => stem(w.replace(/-/g, '')));
  for (const w of words)
    SYNONYMS.set(
      w,
      words.filter((x) => x !== w),
    );
}

/** At most this many distinct query terms are searched. */
export const MAX_QUERY_TERMS = 32;

/**
 * A query's distinct terms: stop words dropped unless nothing else is left. Empty when the query
 * holds no word at all (only punctuation).
 */
export function queryTerms(q: string): string[] {
  const words = q.normalize('NFKC').match(PIECE) ?? [];
  const meaningful = words.filter((w) => !STOP.has(w.toLowerCase()));
  const kept = meaningful.length > 0 ? meaningful : words;
  const terms = new Set<string>();
  for (const w of kept) for (const t of tokens(w, true)) if (!/^[\p{Script=Hiragana}ー]$/u.test(t.term)) terms.add(t.term);
  const asked = [...terms].slice(0, MAX_QUERY_TERMS);
  for (const t of asked) for (const other of SYNONYMS.get(t) ?? []) terms.add(other);
  return [...terms].slice(0, MAX_QUERY_TERMS + 8);
}
