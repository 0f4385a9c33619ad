import { Parser } from 'htmlparser2';

const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);
const SKIP = new Set(['script', 'style', 'template', 'noscript']);

/**
 * The visible text of an HTML fragment: tags dropped, entities decoded, block
 * elements separated by a line break. Inline tags add no space, so
 * `<b>東</b>京` stays searchable as 東京.
 */
export function htmlToText(html: string): string {
  let out = '';
  let skipDepth = 0;
  const parser = new Parser(
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
  parser.write(html);
  parser.end();
  return out
    .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}
