import { htmlToText } from '../../lib/html-text.js';

/** Sheet columns hold HTML; text sparks work on what a reader sees. Plain text passes through unchanged. */
export function visibleText(content: string): string {
  return /<\/?[a-z][^>]*>/i.test(content) ? htmlToText(content) : content;
}

export const WORDS_PER_MINUTE = 200;

const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

const CHUNK = 1000;
const SAFE_CUT_AFTER = /[\s。、！？，．]/u;
// eslint-disable-next-line no-misleading-character-class -- a list of single code points that attach to the one before (marks, ZWJ, variation selectors, a low surrogate, skin-tone modifiers), each tested alone
const GLUED = /[\p{M}\u200d\ufe0e\ufe0f\udc00-\udfff\u{1f3fb}-\u{1f3ff}]/u;

/**
 * V8's Intl.Segmenter is quadratic in the length of the string (100,000
 * characters take seconds), so long text is segmented in pieces cut at
 * whitespace or CJK punctuation, else where no grapheme can be split.
 */
function* pieces(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > CHUNK) {
    let cut = start + CHUNK;
    let soft = cut;
    while (soft > start + CHUNK / 2 && !SAFE_CUT_AFTER.test(text[soft - 1])) soft--;
    if (soft > start + CHUNK / 2) cut = soft;
    else while (cut > start + 1 && (GLUED.test(text.slice(cut, cut + 2)[0] ?? '') || text[cut - 1] === '\u200d')) cut--;
    yield text.slice(start, cut);
    start = cut;
  }
  yield text.slice(start);
}

function countWords(text: string): number {
  let n = 0;
  for (const piece of pieces(text)) for (const s of words.segment(piece)) if (s.isWordLike) n++;
  return n;
}

function countGraphemes(text: string): number {
  let n = 0;
  for (const piece of pieces(text)) for (const _ of graphemes.segment(piece)) n++;
  return n;
}

/**
 * Words (Unicode word segmentation, so Japanese or Chinese text counts words,
 * not whitespace runs), characters as a reader counts them (an emoji is one),
 * lines, and reading time at 200 words per minute rounded up.
 */
export function wordCount(content: string): string {
  const text = visibleText(content).replace(/\r\n?/g, '\n');
  const w = countWords(text);
  const oneLine = text.replace(/\n/g, '');
  const chars = countGraphemes(oneLine);
  // Each whitespace character is a grapheme of its own, so no second segmentation pass is needed.
  const noSpaces = chars - (oneLine.match(/\s/g)?.length ?? 0);
  const lines = text.trim() === '' ? 0 : text.trim().split('\n').length;
  const minutes = Math.ceil(w / WORDS_PER_MINUTE);
  return [`Words: ${w}`, `Characters: ${chars} (${noSpaces} without spaces)`, `Lines: ${lines}`, `Reading time: ${minutes} min (at ${WORDS_PER_MINUTE} words per minute)`].join('\n');
}

const MARKER = /\b(TODO|FIXME|HACK|XXX)\b/;
const OPEN_CHECKBOX = /^\s*(?:[-*+]|\d+[.)])\s+\[ \]\s/;

/** Lines with a TODO, FIXME, HACK or XXX marker, or an unchecked Markdown task, each with its line number. */
export function extractTodos(content: string): string {
  const lines = visibleText(content).replace(/\r\n?/g, '\n').split('\n');
  const found = lines.flatMap((line, i) => (MARKER.test(line) || OPEN_CHECKBOX.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
  return found.length ? found.join('\n') : 'No TODO or FIXME lines found.';
}
