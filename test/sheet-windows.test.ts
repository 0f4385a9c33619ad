import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { convertColumn, windowText, countLines, READ_FORMATS, type ReadFormat } from '../src/modules/sheets/sheets.window.js';
import { markdownHeadings, outlineColumns } from '../src/modules/sheets/sheets.outline.js';
import { snippet } from '../src/lib/snippet.js';
import { searchTerms } from '../src/db/dialect.js';

/** Text pieces mixing scripts: ASCII, Japanese, emoji (surrogate pairs, ZWJ), entities, characters HTML escapes. */
const piece = fc.constantFrom('plain words ', '東京の天気は晴れ。', '日本語のテキスト', '😀', '👩‍💻 ', '𠮷野家', '&amp;', '&lt;tag&gt;', '&#x1F600;', 'a < b > c ', '"quoted" \'x\' ', '| pipe |', '*star* _u_ ', '\n', '  ');
const text = fc.array(piece, { minLength: 1, maxLength: 12 }).map((p) => p.join(''));
const block = fc.oneof(
  text.map((t) => `<p>${t}</p>`),
  fc.tuple(fc.integer({ min: 1, max: 6 }), text).map(([l, t]) => `<h${l}>${t}</h${l}>`),
  fc.array(text, { minLength: 1, maxLength: 4 }).map((items) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`),
  fc.tuple(fc.array(text, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 4 })).map(
    ([cells, rows]) => `<table><thead><tr>${cells.map((c) => `<th>${c}</th>`).join('')}</tr></thead><tbody>${`<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`.repeat(rows)}</tbody></table>`,
  ),
  text.map((t) => `<pre><code class="language-ts">${t}</code></pre>`),
  text.map((t) => `<p><a href="https://example.com/?a=1&amp;b=2" title="x > y">${t}</a> <b>${t}</b><br><img src="x.png" alt="${t.replace(/"/g, '')}"></p>`),
  text.map((t) => `<!-- a > comment -->${t}`),
);
/** A column: some blocks, repeated up to a size between a few bytes and 300 KB. */
const column = fc.tuple(fc.array(block, { minLength: 1, maxLength: 20 }), fc.integer({ min: 0, max: 300_000 })).map(([blocks, size]) => {
  const base = blocks.join('\n');
  return base.repeat(Math.max(1, Math.floor(size / Math.max(1, base.length)))).slice(0, 300_000);
});

function readAll(full: string, format: ReadFormat, maxChars: number) {
  const parts: string[] = [];
  const windows = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const w = windowText(full, format, { maxChars, offsetChars: offset });
    assert.ok(w.window.to - w.window.from <= maxChars, 'window longer than max_chars');
    assert.ok(w.window.next_offset === null || w.window.next_offset > offset, 'no progress');
    assert.equal(w.window.from, offset);
    parts.push(w.text);
    windows.push(w);
    offset = w.window.next_offset;
  }
  return { parts, windows };
}

describe('sheet windows (pure)', () => {
  it('every window sequence reassembles the column exactly, in every format, at boundaries that split nothing', () => {
    fc.assert(
      fc.property(column, fc.constantFrom(...READ_FORMATS), fc.integer({ min: 2, max: 40 }), (html, format, pieces) => {
        const full = convertColumn(html, format);
        const total = Array.from(full).length;
        const maxChars = Math.max(2000, Math.ceil(total / pieces));
        const { parts, windows } = readAll(full, format, maxChars);
        assert.equal(parts.join(''), full);
        for (const { text: t, window: w } of windows) {
          assert.equal(w.total_chars, total);
          assert.equal(w.total_lines, countLines(full));
          assert.doesNotMatch(t, /^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/, 'surrogate pair split');
          if (w.next_offset === null) continue;
          if (format === 'html') {
            assert.doesNotMatch(t, /<[A-Za-z/!][^>]*$/, 'tag split');
            assert.doesNotMatch(t, /&[A-Za-z0-9#]*$/, 'entity split');
          } else {
            const lastTenth = Array.from(t).slice(-Math.floor(maxChars / 10) - 1, -1);
            if (lastTenth.includes('\n')) assert.ok(t.endsWith('\n'), 'line split although a line end was near');
          }
        }
      }),
      { numRuns: 10 },
    );
  });

  it('tiny windows and line ranges reassemble small columns exactly', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), fc.constantFrom(...READ_FORMATS), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 5 }), (blocks, format, maxChars, step) => {
        const full = convertColumn(blocks.join(''), format);
        assert.equal(readAll(full, format, maxChars).parts.join(''), full);
        if (format === 'html') return;
        const lines = countLines(full);
        let joined = '';
        for (let a = 1; a <= lines; a += step) joined += windowText(full, format, { lines: { from: a, to: a + step - 1 } }).text;
        assert.equal(joined, full);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps GFM tables in markdown and sanitizes first', () => {
    const md = convertColumn('<table><tr><th>名前</th><th>a|b</th></tr><tr><td>東京</td><td>😀</td></tr></table><script>alert(1)</script><p onclick="x()">ok</p>', 'markdown');
    assert.equal(md, '| 名前 | a\\|b |\n| --- | --- |\n| 東京 | 😀 |\n\nok');
    assert.equal(convertColumn('<p>a &amp; b</p><p>東京</p>', 'text'), 'a & b\n東京');
  });

  it('outlines columns with headings and their markdown line numbers', () => {
    const [o] = outlineColumns({ col1: '<h1>Plan</h1><p>x</p><pre><code># not a heading</code></pre><h2>日本語 😀</h2>' });
    assert.deepEqual(o.headings, [
      { level: 1, text: 'Plan', line: 1 },
      { level: 2, text: '日本語 😀', line: 9 },
    ]);
    assert.equal(o.chars, Array.from('<h1>Plan</h1><p>x</p><pre><code># not a heading</code></pre><h2>日本語 😀</h2>').length);
    assert.deepEqual(markdownHeadings('```\n# no\n```\n## yes ##'), [{ level: 2, text: 'yes', line: 4 }]);
  });

  it('snippets mark every matched word, escape the rest and stay within 240 characters', () => {
    const long = `${'前置き '.repeat(100)}<b>東京</b> の KUBERNETES クラスタ & more ${'後書き '.repeat(100)}`;
    const s = snippet(long, searchTerms('東京 kubernetes'))!;
    assert.match(s, /<mark>東京<\/mark>/);
    assert.match(s, /<mark>KUBERNETES<\/mark>/);
    assert.match(s, /&lt;b&gt;/);
    assert.match(s, /&amp; more/);
    const plain = s.replace(/<\/?mark>/g, '').replace(/&lt;|&gt;|&amp;/g, '_');
    assert.ok(Array.from(plain).length <= 240, `${Array.from(plain).length}`);
    assert.equal(snippet('nothing here', ['zzz']), null);
    assert.equal(snippet('ＦＵＬＬ width', searchTerms('full')), '<mark>ＦＵＬＬ</mark> width');
  });
});
