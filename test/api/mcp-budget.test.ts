import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, toolError, withinBudget } from '../mcp-helpers.js';

const BUDGET = 25_000;

/** About 300,000 characters of HTML mixing headings, tables, Japanese, emoji and characters JSON escapes. */
function hugeColumn(): string {
  let html = '';
  for (let i = 0; html.length < 300_000; i++) {
    html +=
      `<h2>Section ${i} 東京</h2>\n<p>Line "${i}" with a\ttab, \\ backslash &amp; emoji 😀👩‍💻 and 日本語のテキスト.</p>\n` +
      `<table><tr><th>key</th><th>値</th></tr><tr><td>${i}</td><td>𠮷 | pipe</td></tr></table>\n`;
  }
  return html;
}

for (const dialect of dialects()) {
  describe(`MCP result budget [${dialect}]`, () => {
    let client: Client;
    let key: string;
    let huge: { id: string; html: string };
    const ids: Record<string, string> = {};
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      withinBudget(BUDGET, name, r);
      return r;
    };

    const { s, beforeClose } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
    before(async () => {
      ({ key } = await s.user('business'));
      const post = async (path: string, body: unknown) => {
        const r = await s.req('POST', path, { key, body });
        assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
        return r.body;
      };
      const html = hugeColumn();
      huge = { id: (await post('/v1/sheets', { title: 'budget huge', content: { col1: html, col2: '<p>small budget column</p>' } })).id, html };
      // Many sheets with long titles: even compact list items add up past the budget.
      await Promise.all(Array.from({ length: 60 }, (_, i) => post('/v1/sheets', { title: `budget ${i} ${'t'.repeat(900)}`, content: { col1: `<p>budget ${'x'.repeat(5000)}</p>` } })));
      const big = 'summary budget "text"\n'.repeat(9_000);
      ids.session = (await post('/v1/sessions', { title: 'budget session', summary: big, project: 'budget' })).id;
      await Promise.all(Array.from({ length: 40 }, (_, i) => post('/v1/sessions', { title: `budget s${i} ${'t'.repeat(900)}`, summary: big.slice(0, 50_000), project: 'budget' })));
      ids.solution = (await post('/v1/knowledge?type=solutions', { title: 'budget fix', error: 'budget error', content: big })).id;
      await Promise.all(Array.from({ length: 40 }, (_, i) => post('/v1/knowledge?type=snippets', { title: `budget snippet ${i} ${'t'.repeat(900)}`, content: big.slice(0, 20_000) })));
      client = await httpClient(s, key);
    });
    beforeClose(() => client?.close());

    it('every list, search and get tool stays within MCP_RESULT_MAX_CHARS, cut at an item boundary with a note', async () => {
      const list = ok(await call('list_sheets', { limit: 100 }));
      assert.equal(list.total, 61);
      assert.ok(list.sheets.length < 61 && list.sheets.length > 0);
      assert.equal(list.has_more, true);
      assert.match(list.truncated, new RegExp(`sheets: ${61 - list.sheets.length} of 61 items left out.*offset=${list.sheets.length}`));
      for (const item of list.sheets) assert.equal(item.content, undefined);
      const next = ok(await call('list_sheets', { limit: 100, offset: list.sheets.length }));
      assert.ok(next.sheets.length > 0);

      const found = ok(await call('search_sheets', { q: 'budget', limit: 100 }));
      assert.ok(found.sheets.every((x: any) => typeof x.snippet === 'string' && x.snippet.includes('<mark>budget</mark>')));
      assert.match(found.truncated, /items left out/);

      const sessions = ok(await call('list_sessions', { q: 'budget', limit: 100 }));
      assert.ok(sessions.sessions.every((x: any) => x.summary === undefined && x.snippet.includes('<mark>')));
      const knowledge = ok(await call('search_knowledge', { q: 'budget', limit: 100 }));
      assert.ok(knowledge.snippets.every((x: any) => x.content === undefined));

      // Whole records larger than the budget: the long text is cut, the note says where and how to read on.
      const sheet = ok(await call('get_sheet', { id: huge.id }));
      assert.equal(sheet.sheet.content.col2, '<p>small budget column</p>');
      const cutAt = sheet.sheet.content.col1.length;
      assert.ok(huge.html.startsWith(sheet.sheet.content.col1));
      assert.match(sheet.truncated, /sheet\.content\.col1: cut after \d+ of \d+ characters.*get_sheet_content/);
      assert.ok(cutAt > 5_000);
      assert.match(ok(await call('get_session', { id: ids.session })).truncated, /session\.summary: cut after/);
      assert.match(ok(await call('get_knowledge', { id: ids.solution })).truncated, /solution\.content: cut after/);
    });

    it('every read tool listed by the server answers within the budget', async () => {
      const { tools } = await client.listTools();
      const args: Record<string, Record<string, unknown>> = {
        get_sheet: { id: huge.id },
        get_sheet_content: { id: huge.id },
        get_session: { id: ids.session },
        get_knowledge: { id: ids.solution },
        search_sheets: { q: 'budget' },
        search_knowledge: { q: 'budget' },
        get_latest_handover: { project: 'budget' },
      };
      let called = 0;
      for (const tool of tools) {
        if (!tool.annotations?.readOnlyHint) continue;
        const r = await client.callTool({ name: tool.name, arguments: args[tool.name] ?? { id: huge.id } });
        withinBudget(BUDGET, tool.name, r);
        called++;
      }
      assert.ok(called >= 10, `${called} read tools called`);
    });

    it('get_sheet_content pages through a 300 KB column: windows reassemble it exactly, every answer within the budget', async () => {
      const outline = ok(await call('get_sheet_content', { id: huge.id, summary_only: true }));
      assert.deepEqual(
        outline.columns.map((c: any) => c.key),
        ['col1', 'col2'],
      );
      assert.ok(outline.columns[0].headings.length > 100);
      assert.deepEqual(outline.columns[0].headings[0], { level: 2, text: 'Section 0 東京', line: 1 });

      for (const format of ['markdown', 'html', 'text']) {
        let offset: number | null = 0;
        let joined = '';
        let pieces = 0;
        while (offset !== null) {
          const w: any = ok(await call('get_sheet_content', { id: huge.id, column: 'col1', format, offset }));
          assert.equal(w.window.from, offset);
          assert.ok(w.window.to - w.window.from <= 20_000);
          joined += w.content;
          offset = w.window.next_offset;
          if (offset !== null) assert.match(w.next, new RegExp(`offset=${offset}`));
          pieces++;
        }
        const rest = await s.req('GET', `/v1/sheets/${huge.id}?columns=col1&format=${format}`, { key });
        assert.equal(joined, rest.body.sheet.content.col1, format);
        assert.ok(pieces > 5, `${format}: ${pieces} pieces`);
      }
      const lines = ok(await call('get_sheet_content', { id: huge.id, lines: '1-3' }));
      assert.equal(lines.content.split('\n')[0], '## Section 0 東京');
      assert.equal(lines.window.from, 0);
      toolError(await client.callTool({ name: 'get_sheet_content', arguments: { id: huge.id, column: 'col9' } }), 404, 'not_found');
      toolError(await client.callTool({ name: 'get_sheet_content', arguments: { id: huge.id, lines: '3-1' } }), 400, 'invalid_request');
      toolError(await client.callTool({ name: 'get_sheet_content', arguments: { id: huge.id, lines: '1-2', offset: 5 } }), 400, 'invalid_request');
    });
  });
}
