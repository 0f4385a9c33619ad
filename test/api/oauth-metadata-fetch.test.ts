import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { manualClock } from '../../src/clock.js';
import { FAILURE_CACHE_MS, FETCHES_PER_ADDRESS, FETCH_WINDOW_MS } from '../../src/modules/oauth/oauth.metadata.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { REDIRECT, authorizeUrl, pkce, token } from '../oauth-helpers.js';
import { testPki, webhookEnv } from '../webhooks-helpers.js';

/**
 * Audit #31, finding 7: client ID metadata document fetches were neither cached on failure, shared
 * between parallel requests nor limited per address, and their error text told a 404 from an
 * unreachable host from an oversized answer.
 */
async function documentHost() {
  const { key, cert } = testPki();
  const counts = new Map<string, number>();
  const server = https.createServer({ key, cert }, (req, res) => {
    counts.set(req.url!, (counts.get(req.url!) ?? 0) + 1);
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`;
    const doc = { client_id: url, client_name: 'Doc Agent', redirect_uris: [REDIRECT] };
    if (req.url === '/missing.json') return void res.writeHead(404).end('no');
    if (req.url === '/big.json') return void res.writeHead(200).end(JSON.stringify({ ...doc, client_name: 'x'.repeat(6000) }));
    if (req.url === '/text.json') return void res.writeHead(200).end('hello');
    if (req.url === '/other.json') return void res.writeHead(200).end(JSON.stringify({ ...doc, client_id: 'https://elsewhere.example/c.json' }));
    const delay = req.url === '/slow.json' ? 300 : 0;
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc)), delay);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, fetches: (p: string) => counts.get(p) ?? 0, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

for (const dialect of dialects()) {
  describe(`client ID metadata document fetches are cached, shared and limited [${dialect}]`, () => {
    const clock = manualClock(new Date());
    let host: Awaited<ReturnType<typeof documentHost>>;
    const { s } = useServer(dialect, { clock, env: webhookEnv() });
    before(async () => {
      host = await documentHost();
    });
    after(async () => {
      await host.close();
    });

    const authorize = (client_id: string) =>
      fetch(authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' }), { redirect: 'manual' });

    it('a failed fetch is remembered: 50 requests fetch once, again only after the failure cache ends', async () => {
      const url = `${host.base}/missing.json`;
      for (let i = 0; i < 50; i++) assert.equal((await authorize(url)).status, 400);
      assert.equal(host.fetches('/missing.json'), 1);
      clock.advance(FAILURE_CACHE_MS + 1000);
      assert.equal((await authorize(url)).status, 400);
      assert.equal(host.fetches('/missing.json'), 2);
    });

    it('parallel requests for one document share one fetch', async () => {
      const all = await Promise.all(Array.from({ length: 40 }, () => authorize(`${host.base}/slow.json`)));
      assert.deepEqual([...new Set(all.map((r) => r.status))], [200]);
      assert.equal(host.fetches('/slow.json'), 1);
      await Promise.all(all.map((r) => r.text()));
    });

    it('one error text whether the document is missing, unreachable, too large, not JSON or for another client', async () => {
      const urls = [`${host.base}/missing.json`, `https://127.0.0.1:${await closedPort()}/c.json`, `${host.base}/big.json`, `${host.base}/text.json`, `${host.base}/other.json`];
      const texts = new Set<string>();
      for (const url of urls) {
        const r = await authorize(url);
        assert.equal(r.status, 400, url);
        const html = await r.text();
        assert.match(html, /could not be used: it must answer HTTP 200 over https with JSON of at most 5120 bytes whose client_id is this URL/);
        texts.add(html.split(url).join('URL'));
      }
      assert.equal(texts.size, 1, [...texts].join('\n---\n'));
      const viaToken = await token(s, { grant_type: 'authorization_code', code: 'x', client_id: urls[1], redirect_uri: REDIRECT, code_verifier: pkce().verifier });
      assert.equal(viaToken.status, 401);
      assert.equal(
        viaToken.body.error_description,
        `The client ID metadata document at ${urls[1]} could not be used: it must answer HTTP 200 over https with JSON of at most 5120 bytes whose client_id is this URL`,
      );
    });

    it(`one address starts at most ${FETCHES_PER_ADDRESS} fetches an hour; cached documents still resolve`, async () => {
      clock.advance(FETCH_WINDOW_MS);
      for (let i = 0; i < FETCHES_PER_ADDRESS; i++) {
        const r = await authorize(`${host.base}/ok-${i}.json`);
        assert.equal(r.status, 200, `fetch ${i}`);
        await r.text();
      }
      const refused = await authorize(`${host.base}/ok-over.json`);
      assert.equal(refused.status, 429);
      assert.match(await refused.text(), /Too many client ID metadata documents fetched for this address/);
      assert.equal(host.fetches('/ok-over.json'), 0);
      const viaToken = await token(s, { grant_type: 'authorization_code', code: 'x', client_id: `${host.base}/ok-over2.json`, redirect_uri: REDIRECT, code_verifier: pkce().verifier });
      assert.equal(viaToken.status, 429);
      assert.equal(viaToken.body.error, 'temporarily_unavailable');
      assert.equal(host.fetches('/ok-over2.json'), 0);
      // A document fetched before is served from its cached copy without counting.
      assert.equal((await authorize(`${host.base}/ok-0.json`)).status, 200);
      assert.equal(host.fetches('/ok-0.json'), 1);
      clock.advance(FETCH_WINDOW_MS);
      assert.equal((await authorize(`${host.base}/ok-over.json`)).status, 200);
    });
  });
}
