import { linearParser } from './html-parser.js';

const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
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
  let out = '';
  let skipDepth = 0;
  const parser = linearParser(
    {
      onopentagname(name) {
        if (SKIP.has(name)) skipDepth++;
        else if (BLOCK.has(name)) out += '\n';
      },
      onclosetag(name) {
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
  return out
    .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}
