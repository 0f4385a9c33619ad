import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { likePattern } from './like.js';
import type { Owner } from '../../../db/types.js';

/**
 * PostgreSQL's search index for sheets (migration 022): each sheet's search_text cut into tokens,
 * kept in `sheet_tokens` (GIN over the token arrays) beside a vocabulary of the tokens written
 * (`sheet_token_vocab`, pruned of those no sheet uses: pg-token-vocab-prune.ts; a sheet past TOKEN_CAP keeps
 * none; a write only marks its row pending, and pg-token-indexer.ts tokenizes it soon after). It
 * answers "which sheets hold this term" exactly for most terms, without reading a single text, which a LIKE (or pg_trgm, whose trigrams are only candidates to recheck)
 * cannot: counting `migration` in 91,824 of 100,000 sheets took ~200 ms of LIKE and takes ~20 ms here.
 *
 * Tokens: the text splits into runs of CJK characters and runs of word characters (anything that is
 * neither CJK nor a separator below). A word run is one token (runs past WORD_WINDOW characters are
 * cut into overlapping windows, so a token stays short enough for an index entry); a CJK run gives
 * its pieces of two and three characters (the run itself when shorter). So:
 * - a term made only of word characters (up to WORD_TERM_MAX) occurs exactly in the sheets holding
 *   a vocabulary token that contains it: every occurrence lies inside one word run;
 * - a CJK term of one to three characters likewise (one of two or three is a token itself);
 * - any other term (longer CJK, mixed, with separators) is narrowed by its pieces and then tested
 *   with LIKE on the few texts left (`recheck`); so is a term with no piece at all (`->`), unless
 *   every term is like that, which leaves the plain LIKE over every text.
 * The character classes are written once here and used by the SQL tokenizer, the planner and the
 * JavaScript tokenizer (pg-tokenize.ts): exactness needs them to agree, not to be linguistically right.
 * Changing them needs a migration that redefines the function and rebuilds sheet_tokens.
 */

/** Control characters, ASCII and Latin-1 punctuation and symbols, general punctuation and spaces, CJK punctuation, BOM. `_` is a word character. */
export const SEPARATOR_RANGES: readonly (readonly [number, number])[] = [
  [0x01, 0x2f],
  [0x3a, 0x40],
  [0x5b, 0x5e],
  [0x60, 0x60],
  [0x7b, 0xbf],
  [0xd7, 0xd7],
  [0xf7, 0xf7],
  [0x2000, 0x206f],
  [0x3000, 0x303f],
  [0xfeff, 0xfeff],
];
/** Kana, CJK ideographs, Hangul syllables (all in the BMP). */
export const CJK_RANGES: readonly (readonly [number, number])[] = [
  [0x3040, 0x30ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xf900, 0xfaff],
  [0xac00, 0xd7af],
];
/** Ranges as the inside of a character class, escaped for both SQL and JavaScript regular expressions (`\\u0001-\\u002f...`). */
const classOf = (ranges: readonly (readonly [number, number])[]) => {
  const u = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;
  return ranges.map(([from, to]) => (from === to ? u(from) : `${u(from)}-${u(to)}`)).join('');
};
const SEPARATORS = classOf(SEPARATOR_RANGES);
const CJK = classOf(CJK_RANGES);
const WORD_RUN = `[^${SEPARATORS}${CJK}]+`;
const CJK_RUN = `[${CJK}]+`;

/** Longest word token; longer runs become windows of this length every WORD_WINDOW / 2 characters. */
const WORD_WINDOW = 64;
/** Longest word term found through the vocabulary alone: any substring this long lies inside one window. */
const WORD_TERM_MAX = WORD_WINDOW / 2;
/** Runs longer than this are cut by the linear path of the tokenizer (TOKENIZE_SQL). */
const LONG_RUN = 1024;
/**
 * CJK runs give their pieces of 2 and 3 characters (TOKENIZE_SQL spells out both widths): Japanese
 * words of 3 (議事録) are as common as those of 2.
 */
const CJK_GRAM_MAX = 3;

export const SHEET_TOKENS = { table: 'sheet_tokens', vocab: 'sheet_token_vocab', tokenize: 'sheet_tokens_of', indexed: 'sheet_token_set' } as const;

/**
 * Most distinct tokens one sheet keeps (migration 029's triggers; a text of ordinary prose gives ~400
 * per 2 KB). A text giving more keeps none: its row is `capped` and searches test its text with LIKE
 * (tokenMatchKeys). Without the bound, one write of 500,000 distinct CJK characters added ~1M tokens.
 */
export const TOKEN_CAP = 20000;
/**
 * Advisory lock taken shared by every writer before it reads the vocabulary (migration 029's
 * triggers) and exclusive by a vocabulary pruner for one short delete (pg-token-vocab-prune.ts).
 */
export const VOCAB_LOCK = 290029;

/**
 * What the GIN index is built on and every condition names: `sheet_token_set(tokens)`, an identity
 * function declared very expensive. The planner cannot see that testing a row means fetching its
 * token array from TOAST (~9 µs); it costed a scan of all 100,000 rows below the index for common
 * tokens, and took 860 ms. Priced this way, only the index (which never calls it) looks cheap. The
 * tokens a condition looks for are a subquery's (run once), never constants: with the index's
 * statistics a pair found in every sheet would make even that scan look as cheap as the index.
 */
const TOKEN_SET = sql.raw(`${SHEET_TOKENS.indexed}(t.tokens)`);

/**
 * The tokenizer as a PostgreSQL function body (language sql, immutable): text -> distinct tokens.
 * substr() on UTF-8 text walks from the start of the string, so cutting a run into pieces with it is
 * quadratic: one 20,000-character CJK run took 2.1 s, and a column may hold 500,000. Runs longer than
 * LONG_RUN are cut in one pass instead (32-character chunks, or single characters, joined to their
 * neighbours with lead()): linear, ~1 s for 500,000 CJK characters, but twice the cost of substr() for
 * the short runs that ordinary text is made of.
 */
// Deduplicated under "C" (bytes): under the database's collation the sort was a fifth of the time.
export const TOKENIZE_SQL = `with w as (select m.w[1] as run, m.r from regexp_matches(t, '(${WORD_RUN})', 'g') with ordinality as m(w, r)),
    c as (select n.c[1] as run, n.r from regexp_matches(t, '(${CJK_RUN})', 'g') with ordinality as n(c, r))
  select coalesce(array_agg(distinct tok collate "C"), '{}') from (
    select substr(w.run, i, ${WORD_WINDOW}) as tok from w, generate_series(1, greatest(length(w.run) - ${WORD_TERM_MAX}, 1), ${WORD_TERM_MAX}) as i
      where length(w.run) <= ${LONG_RUN}
    union all
    select q.p[1] || coalesce(lead(q.p[1]) over (partition by w.r order by q.k), '')
      from w, regexp_matches(w.run, '(.{1,${WORD_TERM_MAX}})', 'g') with ordinality as q(p, k) where length(w.run) > ${LONG_RUN}
    union all
    select substr(c.run, i, n) from c, generate_series(1, greatest(length(c.run) - 1, 1)) as i, (values (2), (3)) as widths(n)
      where length(c.run) <= ${LONG_RUN}
    union all
    select unnest(array[u.ch || coalesce(lead(u.ch) over g, ''), u.ch || coalesce(lead(u.ch) over g, '') || coalesce(lead(u.ch, 2) over g, '')])
      from c, regexp_split_to_table(c.run, '') with ordinality as u(ch, k) where length(c.run) > ${LONG_RUN}
      window g as (partition by c.r order by u.k)
  ) as x`;

const PIECE = new RegExp(`${CJK_RUN}|${WORD_RUN}`, 'gu');
const isCjk = new RegExp(`^${CJK_RUN}$`, 'u');

/** How the token index finds rows holding every term: conditions on `sheet_token_set(t.tokens)`, and the terms whose matches must still be tested with LIKE. */
export interface TokenPlan {
  conditions: RawBuilder<SqlBool>[];
  recheck: string[];
  /** Every term: capped sheets (no tokens) are tested with all of them. */
  terms: string[];
}

const tokensContaining = (s: string) => sql<SqlBool>`${TOKEN_SET} && array(select token from ${sql.table(SHEET_TOKENS.vocab)} where token like ${likePattern(s)} escape '\\')`;

/** A plan for `terms` (already normalized), or undefined when no term has a word or CJK character to look up (a term of separators only is left to the recheck). */
export function tokenPlan(terms: string[]): TokenPlan | undefined {
  const conditions: RawBuilder<SqlBool>[] = [];
  const recheck: string[] = [];
  for (const term of terms) {
    const pieces = term.match(PIECE) ?? [];
    if (pieces.length === 0) {
      recheck.push(term);
      continue;
    }
    let exact = pieces.length === 1 && pieces[0] === term;
    for (const piece of pieces) {
      const chars = [...piece];
      if (!isCjk.test(piece)) {
        conditions.push(tokensContaining(chars.slice(0, WORD_TERM_MAX).join('')));
        exact &&= chars.length <= WORD_TERM_MAX;
      } else if (chars.length === 1) {
        conditions.push(tokensContaining(piece));
      } else {
        const width = Math.min(chars.length, CJK_GRAM_MAX);
        const grams = chars.slice(0, chars.length - width + 1).map((_, i) => chars.slice(i, i + width).join(''));
        conditions.push(sql<SqlBool>`${TOKEN_SET} @> (select ${[...new Set(grams)]}::text[])`);
        exact &&= chars.length <= CJK_GRAM_MAX;
      }
    }
    if (!exact) recheck.push(term);
  }
  return conditions.length > 0 ? { conditions, recheck, terms } : undefined;
}

/**
 * Keys (column k) of the sheets the token index finds for `plan`, of one owner in one state if given;
 * before any recheck. Sheets without tokens are found by LIKE on their text, every term, each kind
 * through its partial index: capped ones (past TOKEN_CAP) and pending ones (written since the indexer
 * last ran, migration 032). Normally none or a few, so these parts cost an index probe each. A row is
 * never both (the indexer clears `pending` as it sets `capped`), so the union repeats no key.
 */
export function tokenMatchKeys(plan: TokenPlan, owner?: Owner): RawBuilder<{ k: unknown }> {
  const ownerFilter = owner ? sql` and t.workspace_id = ${owner.workspaceId} and t.trashed = ${owner.trashed}` : sql``;
  const likes = plan.terms.map((term) => sql`s.search_text like ${likePattern(term)} escape '\\'`);
  const untokenized = (flag: 'capped' | 'pending') => sql`select t.sheet_id as k from ${sql.table(SHEET_TOKENS.table)} as t join sheets as s on s.id = t.sheet_id
    where t.${sql.raw(flag)}${ownerFilter} and ${sql.join(likes, sql` and `)}`;
  return sql<{ k: unknown }>`select t.sheet_id as k from ${sql.table(SHEET_TOKENS.table)} as t where ${sql.join(plan.conditions, sql` and `)}${ownerFilter}
    union all ${untokenized('capped')} union all ${untokenized('pending')}`;
}
