import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeForSearch } from '../../src/modules/search/substring/search-text.js';
import { POSITIONAL_RANGES, snippet } from '../../src/modules/search/substring/list-snippet.js';

describe('search snippets', () => {
  it('maps positionally only characters that normalize to one unit of their own', () => {
    // The fast path takes index i of the normalized text for code point i of the original.
    let checked = 0;
    for (const [from, to] of POSITIONAL_RANGES) {
      for (let cp = from; cp <= to; cp++, checked++) {
        const c = String.fromCodePoint(cp);
        assert.equal(normalizeForSearch(c), c.toLowerCase(), `U+${cp.toString(16)}`);
        assert.equal(normalizeForSearch(c).length, 1, `U+${cp.toString(16)}`);
      }
    }
    assert.ok(checked > 20_000);
  });

  it('marks the matched words in plain English, Japanese and mixed text', () => {
    assert.equal(snippet('Deploy the MIGRATION today', ['migration']), 'Deploy the <mark>MIGRATION</mark> today');
    assert.equal(snippet('東京で会議。明日も会議', ['会議']), '東京で<mark>会議</mark>。明日も<mark>会議</mark>');
    assert.equal(snippet('a <b> & 会議', ['会議']), 'a &lt;b&gt; &amp; <mark>会議</mark>');
    // Outside the positional set: full-width letters and half-width kana still match through normalization.
    assert.equal(snippet('ＭＩＧＲＡＴＩＯＮ ﾃﾞﾌﾟﾛｲ', ['migration', 'デプロイ']), '<mark>ＭＩＧＲＡＴＩＯＮ</mark> <mark>ﾃﾞﾌﾟﾛｲ</mark>');
    assert.equal(snippet('nothing here', ['absent']), null);
  });
});
