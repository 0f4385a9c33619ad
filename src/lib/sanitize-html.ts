import { linearParser } from './html-parser.js';

/**
 * Allowlist HTML sanitizer for anything that renders user HTML (exports, the
 * console, Markdown produced by Sparks). Built on htmlparser2 alone so it runs
 * on Node 20 and, unchanged, in the browser bundle of the console.
 *
 * Rules: only the tags below survive; script-like elements are dropped with
 * their content; other unknown tags are unwrapped (their text stays). Only the
 * listed attributes survive (no on* handlers, no style); URLs must be http(s),
 * mailto, relative, or (images only) data:image raster. Output is re-serialized
 * from parsed tokens, so every text and attribute value is freshly escaped and
 * every open tag is closed.
 */

const ALLOWED_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'blockquote',
  'br',
  'caption',
  'cite',
  'code',
  'col',
  'colgroup',
  'dd',
  'del',
  'details',
  'dfn',
  'div',
  'dl',
  'dt',
  'em',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'input',
  'ins',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'time',
  'tr',
  'u',
  'ul',
  'var',
  'wbr',
]);

/** Removed together with everything inside them. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'textarea',
  'select',
  'option',
  'title',
  'head',
  'xmp',
  'noembed',
  'noframes',
  'plaintext',
  'button',
]);

const VOID = new Set(['br', 'col', 'hr', 'img', 'input', 'wbr']);

const GLOBAL_ATTRS = new Set(['title', 'lang', 'dir']);
const TAG_ATTRS: Record<string, Set<string>> = {
  a: new Set(['href', 'name']),
  img: new Set(['src', 'alt', 'width', 'height']),
  td: new Set(['colspan', 'rowspan', 'align']),
  th: new Set(['colspan', 'rowspan', 'align', 'scope']),
  col: new Set(['span']),
  colgroup: new Set(['span']),
  ol: new Set(['start', 'reversed', 'type']),
  li: new Set(['value']),
  time: new Set(['datetime']),
  details: new Set(['open']),
  input: new Set(['type', 'checked']),
  code: new Set(['class']),
  pre: new Set(['class']),
  span: new Set(['class']),
};

const SAFE_CLASS = /^(language-[\w+#-]{1,40}|task-list-item(-checkbox)?|contains-task-list)$/;
const SAFE_LINK = /^(https?:|mailto:)/i;
const SAFE_IMAGE_DATA = /^data:image\/(png|gif|jpe?g|webp);base64,[a-z0-9+/=\s]+$/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Browsers ignore control characters and whitespace inside a scheme ("java\tscript:"), so judge the URL without them. */
function safeUrl(value: string, image: boolean): string | null {
  // eslint-disable-next-line no-control-regex
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (SAFE_LINK.test(compact)) return value.trim();
  if (image && SAFE_IMAGE_DATA.test(value.trim())) return value.trim();
  if (HAS_SCHEME.test(compact)) return null;
  if (/^[/\\]{2}/.test(compact)) return value.trim(); // protocol-relative: same scheme as the page
  return value.trim(); // relative path, fragment or query
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function cleanAttributes(tag: string, attribs: Record<string, string>): string {
  const allowed = TAG_ATTRS[tag];
  let out = '';
  for (const [rawName, value] of Object.entries(attribs)) {
    const name = rawName.toLowerCase();
    if (!GLOBAL_ATTRS.has(name) && !allowed?.has(name)) continue;
    let v: string | null = value;
    if (name === 'href' || name === 'src') v = safeUrl(value, name === 'src');
    else if (name === 'class')
      v =
        value
          .split(/\s+/)
          .filter((c) => SAFE_CLASS.test(c))
          .join(' ') || null;
    else if (name === 'type' && tag === 'input' && value.toLowerCase() !== 'checkbox') return '';
    if (v === null) continue;
    out += ` ${name}="${escapeHtml(v)}"`;
  }
  if (tag === 'input') {
    if (!/ type="checkbox"/i.test(out)) return '';
    out += ' disabled=""';
  }
  if (tag === 'a' && / href="/.test(out)) out += ' rel="noopener noreferrer nofollow"';
  return out;
}

/**
 * `maxDepth` unwraps elements nested deeper than that (their text stays), so a reader that walks the
 * result recursively (Turndown) has a bounded stack whatever was stored.
 */
export function sanitizeHtml(html: string, options: { maxDepth?: number } = {}): string {
  const maxDepth = options.maxDepth ?? Infinity;
  let out = '';
  let dropDepth = 0;
  // The parser's own nesting: it reports a close for every open, so an element is at the depth it opened at.
  let depth = 0;
  const open: string[] = [];
  const parser = linearParser(
    {
      onopentag(name, attribs) {
        if (++depth > maxDepth && !VOID.has(name) && dropDepth === 0 && !DROP_WITH_CONTENT.has(name)) return;
        if (dropDepth > 0 || DROP_WITH_CONTENT.has(name)) {
          if (!VOID.has(name)) dropDepth++;
          return;
        }
        if (!ALLOWED_TAGS.has(name)) return;
        const attrs = cleanAttributes(name, attribs);
        if (name === 'input' && attrs === '') return;
        out += `<${name}${attrs}>`;
        if (!VOID.has(name)) open.push(name);
      },
      onclosetag(name) {
        if (depth-- > maxDepth && !VOID.has(name) && dropDepth === 0 && !DROP_WITH_CONTENT.has(name)) return;
        if (dropDepth > 0) {
          if (!VOID.has(name)) dropDepth--;
          return;
        }
        if (!ALLOWED_TAGS.has(name) || VOID.has(name)) return;
        const at = open.lastIndexOf(name);
        if (at === -1) return;
        while (open.length > at) out += `</${open.pop()}>`;
      },
      ontext(text) {
        if (dropDepth === 0) out += escapeHtml(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  while (open.length > 0) out += `</${open.pop()}>`;
  return out;
}
