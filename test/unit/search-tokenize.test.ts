import assert from 'node:assert/strict';
import { test } from 'node:test';
import { indexTerms, queryTerms, tokens } from '../../src/modules/search/search.tokenize.js';

/**
 * The unified search's tokenizer (src/modules/search/search.tokenize.ts), including its fast paths
 * (docs/decisions/0012-tokenizer-fast-paths.md): a plain lower-case word skips the identifier split, and
 * stems are remembered. Each path must give what the full one gives.
 */
test('identifiers split into their parts beside the whole word', () => {
  assert.deepEqual(indexTerms('jwtVerify'), ['jwtverifi', 'jwt', 'verifi']);
  assert.deepEqual(indexTerms('busy_timeout'), ['busytimeout', 'busi', 'timeout']);
  assert.deepEqual(indexTerms('src/auth/middleware.ts'), ['src', 'auth', 'middlewar', 'ts']);
  assert.deepEqual(indexTerms('TS2345'), ['ts2345', 'ts', '2345']);
  assert.deepEqual(indexTerms('XMLHttpRequest'), ['xmlhttprequest', 'xml', 'http', 'request']);
});

test('a plain lower-case word and the same word capitalized give the same term (fast path and full path agree)', () => {
  for (const word of ['migration', 'kubernetes', 'retries', 'middleware', 'a', 'zz']) {
    const capitalized = word[0].toUpperCase() + word.slice(1);
    assert.deepEqual(indexTerms(word), indexTerms(capitalized), word);
    assert.deepEqual(indexTerms(word), indexTerms(word.toUpperCase()), word);
  }
});

test('other word forms share a stem, also when the stem was remembered from an earlier text', () => {
  const first = indexTerms('migrate migrated migrating migration');
  assert.deepEqual(first, ['migr', 'migr', 'migr', 'migr']);
  // Many distinct words (past the memory's bound) and then the same words again: the same stems.
  for (let i = 0; i < 60_000; i += 5_000) indexTerms(Array.from({ length: 5_000 }, (_, j) => `word${i + j}x`).join(' '));
  assert.deepEqual(indexTerms('migrate migrated migrating migration'), first);
  assert.deepEqual(indexTerms('Retries retry'), ['retri', 'retri']);
});

test('CJK runs give two-character pieces and, in records, single characters; a Latin word stops at Japanese', () => {
  assert.deepEqual(indexTerms('認証の鍵'), ['認証', '認', '証', 'の', '鍵']);
  assert.deepEqual(indexTerms('CSVの文字コード').slice(0, 4), ['csv', 'の', '文字', '文']);
  assert.deepEqual(
    tokens('認証の鍵', true).map((t) => t.term),
    ['認証', 'の', '鍵'],
  );
});

test('tokens keep where each word was, for snippets', () => {
  assert.deepEqual(tokens('use jwtVerify now'), [
    { term: 'us', start: 0, end: 3 },
    { term: 'jwtverifi', start: 4, end: 13 },
    { term: 'jwt', start: 4, end: 13 },
    { term: 'verifi', start: 4, end: 13 },
    { term: 'now', start: 14, end: 17 },
  ]);
});

test('queries drop stop words and question framing', () => {
  assert.deepEqual(queryTerms('why did we switch to jose'), ['switch', 'jos']);
  assert.deepEqual(indexTerms(''), []);
  assert.deepEqual(indexTerms(null), []);
});
