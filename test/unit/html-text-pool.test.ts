import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OFF_THREAD_MIN_CHARS, prepareHtmlTexts, preparedHtmlDepth, preparedHtmlToText } from '../../src/runtime/html-text-pool.js';
import { readHtml } from '../../src/lib/html-text.js';

/** Distinct small columns: each has its own words, depth and entities, so a text taken for the wrong column shows. */
const column = (i: number) => `<h2>Part ${i}</h2>` + '<div>'.repeat(i % 7) + `<p>word${i} &amp; 東京${i}</p><ul><li>item ${i}</li></ul>` + '</div>'.repeat(i % 7);

describe('HTML read once per write (src/runtime/html-text-pool.ts)', () => {
  it('gives each column its own text after its depth was read, past the cache size and with equal columns', () => {
    const htmls = Array.from({ length: 80 }, (_, i) => column(i));
    htmls.push(htmls[3]!, htmls[3]!); // equal columns: both take the right text
    const depths = htmls.map((h) => preparedHtmlDepth(h));
    const texts = htmls.map((h) => preparedHtmlToText(h));
    htmls.forEach((h, i) => {
      const expected = readHtml(h);
      assert.equal(depths[i], expected.depth, `depth of column ${i}`);
      assert.equal(texts[i], expected.text, `text of column ${i}`);
      assert.match(texts[i]!, new RegExp(`word${i < 80 ? i : 3} & 東京${i < 80 ? i : 3}`));
    });
  });

  it('reads a column again when its text is asked for twice, and when no depth came first', () => {
    const html = column(500);
    preparedHtmlDepth(html);
    assert.equal(preparedHtmlToText(html), readHtml(html).text);
    assert.equal(preparedHtmlToText(html), readHtml(html).text);
    assert.equal(preparedHtmlToText(column(501)), readHtml(column(501)).text);
  });

  it('takes a big column prepared off the loop for both depth and text', async () => {
    const big = column(7).repeat(Math.ceil(OFF_THREAD_MIN_CHARS / column(7).length) + 1);
    await prepareHtmlTexts([big]);
    const expected = readHtml(big);
    assert.equal(preparedHtmlDepth(big), expected.depth);
    assert.equal(preparedHtmlToText(big), expected.text);
  });
});
