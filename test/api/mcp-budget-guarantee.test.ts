import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fitToBudget } from '../../src/mcp/budget.js';
import { paged } from '../../src/mcp/paging.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, withinBudget } from '../mcp-helpers.js';

const render = (v: unknown) => JSON.stringify(v, null, 2);
const budget = fc.integer({ min: 5000, max: 30_000 });
const piece = fc.constantFrom('plain words ', '東京の天気は晴れ。', '😀', '👩‍💻', '𠮷', '&amp;', '<p>', '</p>', '<a href="x">', '"quoted" ', '\\', '\n', '\t', '\u0001');
const text = (maxLength: number) => fc.array(piece, { maxLength }).map((p) => p.join(''));
const SHEET_ID = 'sht_01jaaaaaaaaaaaaaaaaaaaaaaa';
const sheetOf = (content: Record<string, string>) => ({
  success: true,
  sheet: { id: SHEET_ID, title: 'generated', content, folder: null, tags: ['a', 'b'], createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', trashedAt: null, version: 4 },
});
const columns = (count: fc.Arbitrary<number>, column: fc.Arbitrary<string>) =>
  count.chain((n) => fc.array(column, { minLength: n, maxLength: n })).map((cols) => Object.fromEntries(cols.map((c, i) => [`col${i + 1}`, c])));

/**
 * The cut value has the original's shape: same keys, lists no longer and item by item alike, strings
 * prefixes of the original; only has_more, next and the root's truncated may differ otherwise.
 */
function sameShape(original: unknown, cut: unknown, path = 'root'): void {
  if (Array.isArray(original)) {
    assert.ok(Array.isArray(cut), `${path} is no longer a list`);
    assert.ok(cut.length <= original.length, `${path} grew`);
    cut.forEach((item, i) => sameShape(original[i], item, `${path}[${i}]`));
  } else if (original && typeof original === 'object') {
    assert.ok(cut && typeof cut === 'object' && !Array.isArray(cut), `${path} is no longer an object`);
    const keys = Object.keys(cut).filter((k) => !(path === 'root' && k === 'truncated'));
    assert.deepEqual(keys, Object.keys(original), `${path}: keys changed`);
    for (const k of keys) if (k !== 'has_more' && k !== 'next') sameShape((original as Record<string, unknown>)[k], (cut as Record<string, unknown>)[k], `${path}.${k}`);
  } else if (typeof original === 'string') {
    assert.equal(typeof cut, 'string', `${path} is no longer a string`);
    assert.ok(original.startsWith(cut as string), `${path} is not a prefix of the original`);
  } else assert.equal(cut, original, `${path} changed`);
}

/** Within budget, shaped as before, and a note exactly when something was cut. */
function checkFitted(value: Record<string, unknown>, max: number, args: Record<string, unknown> = {}, pages = false) {
  const out = fitToBudget(value, max, args, pages) as Record<string, unknown>;
  assert.ok(render(out).length <= max, `${render(out).length} characters for a budget of ${max}`);
  if (render(value).length <= max) assert.equal(out, value);
  else {
    assert.equal(typeof out.truncated, 'string');
    assert.match(out.truncated as string, new RegExp(`^Result cut to fit ${max} characters\\. \\S`));
  }
  sameShape(value, out);
  return out;
}

describe('fitToBudget guarantees the budget for any value', () => {
  it('sheets of up to 99 columns of any length (HTML, CJK, emoji, characters JSON escapes) fit, every column cut to a common length', () => {
    fc.assert(
      fc.property(columns(fc.integer({ min: 1, max: 99 }), text(400)), budget, (content, max) => {
        const out = checkFitted(sheetOf(content), max, { id: SHEET_ID });
        if (!out.truncated) return;
        assert.match(out.truncated as string, /get_sheet_content \{"id":"sht_01ja+","column":/);
        // Fair: no column was emptied while another kept more than the shortest cut one.
        const kept = Object.entries((out.sheet as { content: Record<string, string> }).content).map(([k, v]) => ({ cut: v !== content[k], n: Array.from(v).length }));
        const cut = kept.filter((c) => c.cut);
        if (cut.some((c) => c.n === 0))
          assert.ok(
            kept.every((c) => !c.cut || c.n === 0),
            'some columns emptied while others were kept',
          );
      }),
      { numRuns: 60 },
    );
  });

  it('99 columns of 80 characters (no long string to cut) and 99 columns of 600 fit the smallest budget, each column keeping its start', () => {
    for (const size of [80, 600]) {
      const content = Object.fromEntries(Array.from({ length: 99 }, (_, i) => [`col${i + 1}`, 'é"'.repeat(size / 2)]));
      const out = checkFitted(sheetOf(content), 5000, { id: SHEET_ID });
      const sheet = out.sheet as { id: string; content: Record<string, string> };
      assert.equal(sheet.id, SHEET_ID, 'the id is not cut while content can be');
      assert.ok(
        Object.values(sheet.content).every((c) => c.length > 0),
        `${size}: a column was emptied`,
      );
      assert.match(out.truncated as string, /sheet\.content: 99 columns cut/);
    }
  });

  it('many small strings, long lists and nested lists fit', () => {
    const item = fc.record({
      id: fc.string({ maxLength: 30 }),
      title: text(30),
      tags: fc.array(fc.string({ maxLength: 12 }), { maxLength: 50 }),
      notes: fc.array(fc.record({ at: fc.string({ maxLength: 24 }), text: text(60) }), { maxLength: 30 }),
    });
    const value = fc.record({
      success: fc.constant(true),
      items: fc.array(item, { maxLength: 200 }),
      words: fc.array(fc.string({ maxLength: 20 }), { maxLength: 3000 }),
      labels: columns(fc.integer({ min: 0, max: 99 }), fc.string({ maxLength: 80 })),
    });
    fc.assert(
      fc.property(value, budget, (v, max) => void checkFitted(v, max)),
      { numRuns: 60 },
    );
  });

  it("a cut page's has_more, next and note name the offset that reads on", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 50, max: 2000 }), budget, (limit, offset, beyond, titleLength, max) => {
        const sheets = Array.from({ length: limit }, (_, i) => ({ id: `sht_${offset + i}`, title: `${offset + i} ${'t'.repeat(titleLength)}` }));
        const value = { success: true, sheets, total: offset + limit + beyond, ...paged('list_sheets', offset + limit + beyond, offset, limit) };
        const out = checkFitted(value, max, { limit, offset }, true) as typeof value & { truncated?: string };
        // Items of more than half the room may keep their place with their titles cut instead.
        if (out.sheets.length === limit) return assert.equal(out.has_more, beyond > 0);
        const next = offset + out.sheets.length;
        assert.equal(out.sheets.at(-1)?.id ?? `sht_${offset - 1}`, `sht_${next - 1}`);
        assert.equal(out.has_more, true);
        if (beyond > 0) assert.equal(out.next, `More: call list_sheets with offset=${next} (same other arguments); ${value.total} in all.`);
        assert.match(out.truncated ?? '', new RegExp(`sheets: ${limit - out.sheets.length} of ${limit} items left out.*call again with offset=${next}\\b`));
      }),
      { numRuns: 80 },
    );
  });

  it('lists no tool pages say how to get fewer without offering arguments the tool lacks; search_knowledge marks its page has_more', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `x${i}`, content: `${i} ${'c'.repeat(300)}` }));
    const todos = checkFitted({ success: true, todos: many(100), total: 100, has_more: false }, 5000, {});
    assert.equal(todos.has_more, true);
    assert.match(todos.truncated as string, /todos: \d+ of 100 items left out.*status or project/);
    for (const list of ['sparks', 'webhooks']) {
      const out = checkFitted({ success: true, [list]: many(100), total: 100, has_more: false }, 5000, {});
      assert.doesNotMatch(out.truncated as string, /smaller limit|lower limit|offset=/, list);
      assert.match(out.truncated as string, new RegExp(`list_${list} returns every`));
    }
    const knowledge = checkFitted({ success: true, solutions: many(60), snippets: many(60), solutions_page: { total: 70, has_more: true }, snippets_page: { total: 60, has_more: false } }, 8000, {
      q: 'x',
      limit: 100,
    });
    assert.equal((knowledge.snippets_page as { has_more: boolean }).has_more, true);
    assert.match(knowledge.truncated as string, /snippets: \d+ of 60 items left out.*narrow the query/);
  });

  it('a cut revision and a cut outline say what get_sheet_revision and summary_only can and cannot do', () => {
    const content = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`col${i + 1}`, `<p>${'r'.repeat(900)}</p>`]));
    const revision = checkFitted({ success: true, revision: { version: 7, title: 'old', content, folder: null, tags: [], updatedAt: '2025-01-01T00:00:00.000Z' } }, 6000, { id: SHEET_ID, version: 7 });
    assert.match(revision.truncated as string, new RegExp(`revision\\.content: 30 columns cut.*revision 7 of sheet ${SHEET_ID}.*cannot read in pieces.*restore_sheet_revision`));
    const outline = Array.from({ length: 99 }, (_, i) => ({ key: `col${i + 1}`, chars: 900, text_chars: 800, lines: 40, headings: [{ level: 2, text: 'Heading', line: 1 }] }));
    const out = checkFitted({ success: true, id: SHEET_ID, title: 't', version: 2, columns: outline }, 5000, { id: SHEET_ID, summary_only: true }, true);
    assert.doesNotMatch(out.truncated as string, /offset/);
    assert.match(out.truncated as string, /columns: \d+ of 99 items left out.*outline cannot be read in pieces/);
  });
});

const BUDGET = 9000;

for (const dialect of dialects()) {
  describe(`MCP_RESULT_MAX_CHARS=${BUDGET} holds for a sheet of 99 long columns [${dialect}]`, () => {
    let client: Client;
    let id: string;
    const content = Object.fromEntries(Array.from({ length: 99 }, (_, i) => [`col${i + 1}`, `<h2>Column ${i + 1} 東京</h2><p>${`"quoted" line ${i} 😀 `.repeat(32)}</p>`]));
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      withinBudget(BUDGET, name, r);
      return ok(r);
    };

    const { s, beforeClose } = useServer(dialect, { env: { RATE_LIMIT_DISABLED: '1', MCP_RESULT_MAX_CHARS: String(BUDGET) } });
    before(async () => {
      const { key } = await s.user('business');
      client = await httpClient(s, key);
    });
    beforeClose(() => client?.close());

    it('create_sheet, get_sheet, update_sheet, get_sheet_revision and the outline are cut to the budget with notes that read on', async () => {
      assert.ok(
        Object.values(content).every((c) => c.length > 600),
        'columns of more than 600 characters',
      );
      const created = await call('create_sheet', { title: 'wide', content });
      id = created.id;
      assert.match(created.truncated, /sheet\.content: 99 columns cut/);

      const sheet = await call('get_sheet', { id });
      assert.match(sheet.truncated, new RegExp(`^Result cut to fit ${BUDGET} characters\\. sheet\\.content: 99 columns cut.*get_sheet_content \\{"id":"${id}"`));
      assert.deepEqual(Object.keys(sheet.sheet.content), Object.keys(content));
      for (const [k, v] of Object.entries(sheet.sheet.content as Record<string, string>)) {
        assert.ok(v.length > 0 && content[k].startsWith(v), `${k}: not a non-empty prefix`);
      }
      // The note's recipe: the rest from offset = characters received, in html, reassembles the column.
      const got = sheet.sheet.content.col50 as string;
      const rest = await call('get_sheet_content', { id, column: 'col50', format: 'html', offset: Array.from(got).length });
      assert.equal(got + rest.content, content.col50);

      const updated = await call('update_sheet', { id, title: 'wider' });
      assert.equal(updated.sheet.version, 2);
      assert.match(updated.truncated, /sheet\.content: 99 columns cut/);
      const revision = await call('get_sheet_revision', { id, version: 1 });
      assert.match(revision.truncated, new RegExp(`revision\\.content: 99 columns cut.*revision 1 of sheet ${id}.*restore_sheet_revision`));
      assert.ok(
        Object.values(revision.revision.content as Record<string, string>).every((v) => v.length > 0),
        'a revision column was emptied',
      );

      const outline = await call('get_sheet_content', { id, summary_only: true });
      if (outline.truncated) assert.doesNotMatch(outline.truncated, /offset/);
    });
  });
}
