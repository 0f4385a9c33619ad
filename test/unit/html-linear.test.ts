import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { linearParser, stackWork } from '../../src/lib/html-parser.js';
import { htmlToText } from '../../src/lib/html-text.js';
import { sanitizeHtml } from '../../src/lib/sanitize-html.js';

/** Every callback of a parse, in order, to compare the linear parser with htmlparser2's own. */
function events(make: typeof linearParser, html: string, chunks = 1): string[] {
  const log: string[] = [];
  const p = make(
    {
      onopentag: (name, attribs) => log.push(`<${name} ${JSON.stringify(attribs)}`),
      onclosetag: (name, implied) => log.push(`</${name} ${implied}`),
      ontext: (text) => log.push(`t:${text}`),
      oncomment: (c) => log.push(`c:${c}`),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  const step = Math.ceil(html.length / chunks) || 1;
  for (let i = 0; i < html.length; i += step) p.write(html.slice(i, i + step));
  p.end();
  return log;
}
const plain: typeof linearParser = (cbs, options) => new Parser(cbs, options);

const pieces = [
  '<p>',
  '</p>',
  '<div>',
  '</div>',
  '<b>',
  '</b>',
  '<li>',
  '</li>',
  '<ul>',
  '</ul>',
  '<table>',
  '<tr>',
  '<td>',
  '</td>',
  '</tr>',
  '<svg>',
  '</svg>',
  '<path/>',
  '<math>',
  '</math>',
  '<br>',
  '</br>',
  '<select>',
  '<option>',
  '</select>',
  '<script>',
  '</script>',
  '<a href="x&amp;y">',
  '</a>',
  '<img src=x>',
  '<input type=checkbox>',
  '<!-- c -->',
  '&amp;',
  '&#x41;',
  '&nbsp;',
  'text',
  ' ',
  '\n',
  '<',
  '>',
  '<h1>',
  '</h1>',
  '<dd>',
  '<dt>',
  '<option>',
  '<foreignObject>',
];

describe('linear HTML parsing', () => {
  it('emits exactly the events of htmlparser2 on arbitrary tag soup, whole or in chunks', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 80 }), fc.integer({ min: 1, max: 5 }), (parts, chunks) => {
        const html = parts.join('');
        assert.deepEqual(events(linearParser, html, chunks), events(plain, html, chunks));
      }),
      { numRuns: 500 },
    );
  });

  // Deterministic: the work of finding a close tag's element is counted, not timed.
  const hostile: Record<string, (n: number) => string> = {
    'stray closes after open tags': (n) => '<div>'.repeat(n) + '</p>'.repeat(n),
    'closes of another name': (n) => '<b>'.repeat(n) + '</i>'.repeat(n),
    'nesting closed in order': (n) => '<div>'.repeat(n) + 'x' + '</div>'.repeat(n),
    'interleaved open and stray close': (n) => '<span><em></b>'.repeat(n),
    'close of the bottom element': (n) => '<section>' + '<div>'.repeat(n) + '</section>'.repeat(n),
  };
  for (const [name, make] of Object.entries(hostile)) {
    it(`finds close tags in linear work: ${name}`, () => {
      for (const n of [1_000, 10_000]) {
        stackWork.steps = 0;
        htmlToText(make(n));
        sanitizeHtml(make(n));
        assert.ok(stackWork.steps <= 4 * n + 10, `${stackWork.steps} stack steps for n=${n}`);
      }
    });
  }

  it('costs about 10x the time for 10x the hostile input (generous margin: under 30x, best of 3)', () => {
    const best = (html: string) => {
      let min = Infinity;
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        htmlToText(html);
        sanitizeHtml(html);
        min = Math.min(min, performance.now() - t);
      }
      return min;
    };
    const soup = (n: number) => '<div>'.repeat(n) + '</p>'.repeat(n) + '<svg>'.repeat(n) + '<li>x'.repeat(n) + '&amp;'.repeat(n);
    best(soup(1_000)); // warm up the JIT
    const small = best(soup(4_000));
    const large = best(soup(40_000));
    assert.ok(large < 30 * Math.max(small, 1), `10x input took ${(large / small).toFixed(1)}x the time (${small.toFixed(1)} -> ${large.toFixed(1)} ms)`);
  });

  it('keeps the output of htmlToText and sanitizeHtml on hostile input', () => {
    assert.equal(htmlToText('<div>'.repeat(3) + 'a' + '</p>'.repeat(2) + 'b'), 'a\nb');
    assert.equal(sanitizeHtml('<b><i>x</b>y</i>'), '<b><i>x</i></b>y');
    assert.equal(sanitizeHtml('</p>'.repeat(2)), '<p></p><p></p>');
    assert.equal(sanitizeHtml('<svg><svg></svg></svg>ok'), 'ok');
  });
});
