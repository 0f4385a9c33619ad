import { linearParser } from './html-parser.js';

const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);
const SKIP = new Set(['script', 'style', 'template', 'noscript']);
const SLICE = 64 * 1024;

export class HtmlTooSlowError extends Error {
  constructor() {
    super('reading the HTML took longer than its time budget');
    this.name = 'HtmlTooSlowError';
  }
}

/**
 * The visible text of an HTML fragment: tags dropped, entities decoded, block
 * elements separated by a line break. Inline tags add no space, so
 * `<b>東</b>京` stays searchable as 東京.
 */
export function htmlToText(html: string, deadline = Infinity): string {
  return readHtml(html, deadline).text;
}

/**
 * The deepest nesting a stored column may have (docs/api.md, Limits). Real documents stay far below it;
 * Markdown conversion flattens anything deeper stored before the limit existed (src/lib/html-markdown.ts).
 */
export const HTML_MAX_DEPTH = 200;

/** How deeply the HTML nests elements (htmlparser2's open-element stack at its highest), e.g. 2 for `<p><b>x</b></p>`. */
export function htmlDepth(html: string): number {
  return readHtml(html).depth;
}

/** The visible text (htmlToText) and the nesting depth (htmlDepth) in one pass. */
export function readHtml(html: string, deadline = Infinity): { text: string; depth: number } {
  let out = '';
  let skipDepth = 0;
  let depth = 0;
  let maxDepth = 0;
  // The parser reports a close for every open (implied, void and end-of-input ones too), so depth returns to 0.
  const parser = linearParser(
    {
      onopentagname(name) {
        if (++depth > maxDepth) maxDepth = depth;
        if (SKIP.has(name)) skipDepth++;
        else if (BLOCK.has(name)) out += '\n';
      },
      onclosetag(name) {
        depth--;
        if (SKIP.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        else if (BLOCK.has(name)) out += '\n';
      },
      ontext(text) {
        if (skipDepth === 0) out += text;
      },
    },
    { decodeEntities: true },
  );
  // In slices, so a caller with a time budget can stop between them; the output is the same.
  for (let at = 0; at < html.length; at += SLICE) {
    if (performance.now() > deadline) throw new HtmlTooSlowError();
    parser.write(html.slice(at, at + SLICE));
  }
  parser.end();
  const text = out
    .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
  return { text, depth: maxDepth };
}
