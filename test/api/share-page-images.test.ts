import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { withoutRemoteImages } from '../../src/modules/shares/shares.page.js';

// Audit finding 14: the page of a share link loaded remote images, so a tracking pixel saw every reader's address.
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('withoutRemoteImages', () => {
  it('turns every non-data image into a link with its alt text, keeps data: images, and leaves text alone', () => {
    assert.equal(
      withoutRemoteImages('<p><img src="https://t.example/p.gif?u=1&amp;x=2" alt="logo"></p>'),
      '<p><a href="https://t.example/p.gif?u=1&amp;x=2" rel="noopener noreferrer nofollow">[image: logo]</a></p>',
    );
    assert.equal(withoutRemoteImages('<img src="//t.example/p.gif" width="1" height="1">'), '<a href="//t.example/p.gif" rel="noopener noreferrer nofollow">[image]</a>');
    assert.equal(withoutRemoteImages(`<img src="${PIXEL}" alt="dot">`), `<img src="${PIXEL}" alt="dot">`);
    assert.equal(withoutRemoteImages('<img alt="no source">'), '');
    assert.equal(withoutRemoteImages('<p>&lt;img src="https://t.example/x"&gt;</p>'), '<p>&lt;img src="https://t.example/x"&gt;</p>');
  });
});

for (const dialect of dialects()) {
  describe(`a share link's page loads nothing from elsewhere [${dialect}]`, () => {
    const {
      s,
      users: { alice },
    } = useServer(dialect, { users: { alice: 'pro' } });

    it('remote images (https, http, protocol-relative) become links; data: images stay; the CSP allows data: images only', async () => {
      const content = {
        col1: `<p>Logo <img src="https://tracker.example/pixel.gif?who=reader" alt="company logo" width="1" height="1"></p>`,
        col2: `<p><IMG SRC='http://tracker.example/b.png'><img src="//tracker.example/c.png" alt="c"><img src="${PIXEL}" alt="inline"></p>`,
      };
      const id = (await s.req('POST', '/v1/sheets', { key: alice.key, body: { title: 'Shared', content } })).body.id;
      const share = (await s.req('POST', `/v1/sheets/${id}/shares`, { key: alice.key, body: {} })).body.share;
      const res = await fetch(`${s.url}/s/${share.token}`);
      assert.equal(res.status, 200);
      const html = await res.text();
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /(^|; )img-src data:(;|$)/);
      assert.doesNotMatch(csp, /https:/);
      const images = [...html.matchAll(/<img\b[^>]*>/gi)].map((m) => m[0]);
      assert.deepEqual(images, [`<img src="${PIXEL}" alt="inline">`], 'only the data: image is an image');
      assert.match(html, /<a href="https:\/\/tracker\.example\/pixel\.gif\?who=reader" rel="noopener noreferrer nofollow">\[image: company logo\]<\/a>/);
      assert.match(html, /<a href="http:\/\/tracker\.example\/b\.png" rel="noopener noreferrer nofollow">\[image\]<\/a>/);
      assert.match(html, /<a href="\/\/tracker\.example\/c\.png" rel="noopener noreferrer nofollow">\[image: c\]<\/a>/);
      assert.match(html, /Logo/);
    });
  });
}
