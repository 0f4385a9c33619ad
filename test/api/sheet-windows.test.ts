import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { convertColumn, windowText, countLines, READ_FORMATS, type ReadFormat } from '../../src/modules/sheets/sheets.window.js';
import { markdownHeadings, outlineColumns } from '../../src/modules/sheets/sheets.outline.js';
import { snippet } from '../../src/modules/search/substring/list-snippet.js';
import { searchTerms } from '../../src/modules/search/substring/search-text.js';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/** Text pieces mixing scripts: ASCII, Japanese, emoji (surrogate pairs, ZWJ), entities, characters HTML escapes. */
const piece = fc.constantFrom(
  'plain words ',
  '東京の天気は晴れ。',
  '日本語のテキスト',
  '😀',
  '👩‍💻 ',
  '𠮷野家',
  '&amp;',
  '&lt;tag&gt;',
  '&#x1F600;',
  'a < b > c ',
  '"quoted" \'x\' ',
  '| pipe |',
  '*star* _u_ ',
  '\n',
  '  ',
);
const text = fc.array(piece, { minLength: 1, maxLength: 12 }).map((p) => p.join(''));
const block = fc.oneof(
  text.map((t) => `<p>${t}</p>`),
  fc.tuple(fc.integer({ min: 1, max: 6 }), text).map(([l, t]) => `<h${l}>${t}</h${l}>`),
  fc.array(text, { minLength: 1, maxLength: 4 }).map((items) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`),
  fc
    .tuple(fc.array(text, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 4 }))
    .map(([cells, rows]) => `<table><thead><tr>${cells.map((c) => `<th>${c}</th>`).join('')}</tr></thead><tbody>${`<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`.repeat(rows)}</tbody></table>`),
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
  it('every window sequence reassembles the column exactly, in every format, at boundaries that split nothing', async () => {
    await fc.assert(
      fc.asyncProperty(column, fc.constantFrom(...READ_FORMATS), fc.integer({ min: 2, max: 40 }), async (html, format, pieces) => {
        const full = await convertColumn(html, format, 'col1');
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

  it('tiny windows and line ranges reassemble small columns exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(block, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...READ_FORMATS),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 5 }),
        async (blocks, format, maxChars, step) => {
          const full = await convertColumn(blocks.join(''), format, 'col1');
          assert.equal(readAll(full, format, maxChars).parts.join(''), full);
          if (format === 'html') return;
          const lines = countLines(full);
          let joined = '';
          for (let a = 1; a <= lines; a += step) joined += windowText(full, format, { lines: { from: a, to: a + step - 1 } }).text;
          assert.equal(joined, full);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps GFM tables in markdown and sanitizes first', async () => {
    const md = await convertColumn('<table><tr><th>名前</th><th>a|b</th></tr><tr><td>東京</td><td>😀</td></tr></table><script>alert(1)</script><p onclick="x()">ok</p>', 'markdown', 'col1');
    assert.equal(md, '| 名前 | a\\|b |\n| --- | --- |\n| 東京 | 😀 |\n\nok');
    assert.equal(await convertColumn('<p>a &amp; b</p><p>東京</p>', 'text', 'col1'), 'a & b\n東京');
  });

  it('outlines columns with headings and their markdown line numbers', async () => {
    const [o] = await outlineColumns({ col1: '<h1>Plan</h1><p>x</p><pre><code># not a heading</code></pre><h2>日本語 😀</h2>' });
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

  it('snippets match as the search does: kana with voicing marks, decomposed accents, later words beside a common first one', () => {
    // Half-width ﾃﾞｰﾀ and decomposed デ (テ + U+3099) are データ after NFKC, as the search sees them.
    assert.equal(snippet('新しいﾃﾞｰﾀ形式', searchTerms('データ')), '新しい<mark>ﾃﾞｰﾀ</mark>形式');
    assert.equal(snippet('テ\u3099ータを保存', searchTerms('データ')), '<mark>テ\u3099ータ</mark>を保存');
    assert.equal(snippet('cafe\u0301 au lait', searchTerms('café')), '<mark>cafe\u0301</mark> au lait');
    // 3,000 hits of "the" must not use up the room for "needle".
    const s = snippet(`${'the '.repeat(3000)}needle the end`, searchTerms('the needle'))!;
    assert.match(s, /<mark>needle<\/mark>/);
  });
});

for (const dialect of dialects()) {
  describe(`windowed reads, outline, fields and snippets over REST [${dialect}]`, () => {
    let key: string;
    let id: string;
    const col1 = '<h1>Plan 計画</h1>\n<p>First &amp; foremost 😀</p>\n<table><tr><th>a</th><th>b</th></tr><tr><td>東京</td><td>2</td></tr></table>\n<h2>Next</h2><p>Done.</p>';
    const get = (query: string) => s.req('GET', `/v1/sheets/${id}?${query}`, { key });
    const { s } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
    before(async () => {
      ({ key } = await s.user('pro'));
      id = (await s.req('POST', '/v1/sheets', { key, body: { title: 'Windows', content: { col1, col2: '<p>second column</p>', col10: '<p>tenth</p>' } } })).body.id;
    });

    it('without window parameters the sheet is as stored and has no window', async () => {
      const r = await s.req('GET', `/v1/sheets/${id}`, { key });
      assert.equal(r.body.sheet.content.col1, col1);
      assert.equal(r.body.window, undefined);
    });

    it('columns and format select and convert; window describes each column', async () => {
      const r = await get('columns=col1,col10&format=markdown');
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body.sheet.content), ['col1', 'col10']);
      const md = await convertColumn(col1, 'markdown', 'col1');
      assert.equal(r.body.sheet.content.col1, md);
      assert.match(md, /\| a \| b \|\n\| --- \| --- \|\n\| 東京 \| 2 \|/);
      assert.deepEqual(r.body.window, {
        format: 'markdown',
        columns: {
          col1: { total_chars: Array.from(md).length, total_lines: countLines(md), from: 0, to: Array.from(md).length, next_offset: null },
          col10: { total_chars: 5, total_lines: 1, from: 0, to: 5, next_offset: null },
        },
      });
      assert.equal((await get('columns=col2&format=text')).body.sheet.content.col2, 'second column');
      assert.equal(r.headers.get('etag'), `"${r.body.sheet.version}"`);
    });

    it('max_chars and offset_chars page through a column in code points, exactly', async () => {
      for (const format of READ_FORMATS) {
        let offset: number | null = 0;
        let joined = '';
        while (offset !== null) {
          const r = await get(`columns=col1&format=${format}&max_chars=7&offset_chars=${offset}`);
          const w = r.body.window.columns.col1;
          assert.equal(w.from, offset);
          assert.ok(w.to - w.from <= 7);
          joined += r.body.sheet.content.col1;
          offset = w.next_offset;
        }
        assert.equal(joined, await convertColumn(col1, format, 'col1'), format);
      }
      // The emoji is one code point; the HTML window does not end inside a tag when a boundary is near.
      const html = await get('columns=col1&max_chars=40');
      assert.doesNotMatch(html.body.sheet.content.col1, /<[^>]*$/);
    });

    it('lines=A-B reads lines of markdown or text; with html it is a 400', async () => {
      const r = await get('columns=col1&format=markdown&lines=1-1');
      assert.equal(r.body.sheet.content.col1, '# Plan 計画\n');
      assert.equal(r.body.window.columns.col1.from, 0);
      const text = await get('columns=col1&format=text&lines=2-3');
      assert.equal(text.body.sheet.content.col1, 'First & foremost 😀\na\n');
      assertError(await get('lines=1-2'), 400, 'invalid_request', /lines/);
      assertError(await get('format=text&lines=3-1'), 400, 'invalid_request', /lines/);
      assertError(await get('format=text&lines=1-2&offset_chars=3'), 400, 'invalid_request', /offset_chars/);
      assertError(await get('format=pdf'), 400, 'invalid_request', /format/);
      assertError(await get('max_chars=0'), 400, 'invalid_request', /max_chars/);
      assertError(await get('columns=colx'), 400, 'invalid_request', /columns/);
    });

    it('GET /sheets/{id}/columns outlines every column with headings', async () => {
      const r = await s.req('GET', `/v1/sheets/${id}/columns`, { key });
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.columns.map((c: any) => c.key),
        ['col1', 'col2', 'col10'],
      );
      const [c1] = r.body.columns;
      assert.equal(c1.chars, Array.from(col1).length);
      assert.deepEqual(c1.headings, [
        { level: 1, text: 'Plan 計画', line: 1 },
        { level: 2, text: 'Next', line: 9 },
      ]);
      const lines = await get(`columns=col1&format=markdown&lines=${c1.headings[1].line}-${c1.lines}`);
      assert.match(lines.body.sheet.content.col1, /^## Next\n/);
      const other = await s.user('free');
      assertError(await s.req('GET', `/v1/sheets/${id}/columns`, { key: other.key }), 403, 'forbidden');
      assertError(await s.req('GET', '/v1/sheets/sht_nope/columns', { key }), 404, 'not_found');
    });

    it('fields= trims list items (id always), unknown fields are a 400 naming them; q adds snippets', async () => {
      const list = await s.req('GET', '/v1/sheets?fields=title', { key });
      assert.deepEqual(list.body.sheets, [{ id, title: 'Windows' }]);
      assertError(await s.req('GET', '/v1/sheets?fields=title,bogus', { key }), 400, 'invalid_request', /bogus/);
      const found = await s.req('GET', `/v1/sheets?q=${encodeURIComponent('東京')}&fields=updatedAt`, { key });
      assert.deepEqual(Object.keys(found.body.sheets[0]).sort(), ['id', 'snippet', 'updatedAt']);
      assert.match(found.body.sheets[0].snippet, /<mark>東京<\/mark>/);
      assert.match(found.body.sheets[0].snippet, /First &amp; foremost/);

      await s.req('POST', '/v1/sessions', { key, body: { title: 'Deploy', summary: `${'前置き。'.repeat(80)}Fixed the <b> KUBERNETES rollout & probes.${'後書き。'.repeat(80)}`, project: 'ops' } });
      const sessions = await s.req('GET', '/v1/sessions?q=kubernetes&fields=title', { key });
      assert.equal(sessions.status, 200);
      const [hit] = sessions.body.sessions;
      assert.deepEqual(Object.keys(hit).sort(), ['id', 'snippet', 'title']);
      assert.match(hit.snippet, /<mark>KUBERNETES<\/mark> rollout &amp; probes/);
      assert.match(hit.snippet, /&lt;b&gt;/);
      assert.ok(Array.from(hit.snippet.replace(/<\/?mark>/g, '').replace(/&(lt|gt|amp);/g, '_')).length <= 240);
      assertError(await s.req('GET', '/v1/sessions?fields=nope', { key }), 400, 'invalid_request', /nope/);

      await s.req('POST', '/v1/knowledge?type=solutions', { key, body: { title: 'EADDRINUSE', error: 'listen EADDRINUSE :::8787', content: 'Stop the old server.' } });
      const k = await s.req('GET', '/v1/knowledge?q=eaddrinuse&fields=title', { key });
      assert.deepEqual(Object.keys(k.body.solutions[0]).sort(), ['id', 'snippet', 'title']);
      assert.match(k.body.solutions[0].snippet, /listen <mark>EADDRINUSE<\/mark> :::8787/);
      assert.deepEqual(Object.keys((await s.req('GET', '/v1/knowledge?fields=language', { key })).body.solutions[0]).sort(), ['id', 'language']);
      assertError(await s.req('GET', '/v1/knowledge?fields=title,zzz', { key }), 400, 'invalid_request', /zzz/);
    });
  });
}
