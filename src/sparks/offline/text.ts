import { htmlToText } from '../../lib/html-text.js';

/** Sheet columns hold HTML; text sparks work on what a reader sees. Plain text passes through unchanged. */
export function visibleText(content: string): string {
  return /<\/?[a-z][^>]*>/i.test(content) ? htmlToText(content) : content;
}

export const WORDS_PER_MINUTE = 200;

const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function countWords(text: string): number {
  let n = 0;
  for (const s of words.segment(text)) if (s.isWordLike) n++;
  return n;
}

function countGraphemes(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
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
  const chars = countGraphemes(text.replace(/\n/g, ''));
  const noSpaces = countGraphemes(text.replace(/\s/g, ''));
  const lines = text.trim() === '' ? 0 : text.trim().split('\n').length;
  const minutes = Math.ceil(w / WORDS_PER_MINUTE);
  return [
    `Words: ${w}`,
    `Characters: ${chars} (${noSpaces} without spaces)`,
    `Lines: ${lines}`,
    `Reading time: ${minutes} min (at ${WORDS_PER_MINUTE} words per minute)`,
  ].join('\n');
}

const MARKER = /\b(TODO|FIXME|HACK|XXX)\b/;
const OPEN_CHECKBOX = /^\s*(?:[-*+]|\d+[.)])\s+\[ \]\s/;

/** Lines with a TODO, FIXME, HACK or XXX marker, or an unchecked Markdown task, each with its line number. */
export function extractTodos(content: string): string {
  const lines = visibleText(content).replace(/\r\n?/g, '\n').split('\n');
  const found = lines.flatMap((line, i) => (MARKER.test(line) || OPEN_CHECKBOX.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
  return found.length ? found.join('\n') : 'No TODO or FIXME lines found.';
}
