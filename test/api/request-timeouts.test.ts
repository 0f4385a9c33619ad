import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { UNAUTHENTICATED_BODY_LIMIT } from '../../src/http/request-bounds.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok } from '../mcp-helpers.js';
import { startFakeAi, type FakeAi } from '../sparks-fakes.js';
import { openStream } from '../sse-helpers.js';

const HEADERS_MS = 500;
const REQUEST_MS = 1000;
/** Node checks timeouts every 500 ms here (src/http/request-bounds.ts): a close comes within the timeout plus that, plus room for a loaded machine. */
const SLACK_MS = 2500;

/**
 * A raw client that sends `head` and then one piece of `trickle` every `everyMs`, as a slow-loris
 * client does; resolves with what the server answered and how long until it closed the connection.
 */
function trickle(url: string, head: string, trickle: string, everyMs: number, giveUpMs = 10_000) {
  const { port } = new URL(url);
  return new Promise<{ ms: number; answer: string; closedByServer: boolean }>((resolve) => {
    const started = performance.now();
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]);
      }, everyMs);
    });
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      const ms = performance.now() - started;
      resolve({ ms, answer, closedByServer: ms < giveUpMs });
    });
  });
}

describe('request timeouts: configuration', () => {
  it('defaults to 10 s for headers and 30 s for the request, and names a bad value', () => {
    assert.deepEqual(loadConfig({}).httpTimeouts, { headersMs: 10_000, requestMs: 30_000 });
    assert.deepEqual(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '2000' }).httpTimeouts, { headersMs: 2000, requestMs: 2000 });
    assert.throws(
      () => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: 'soon' }),
      (e: Error) => e instanceof ConfigError && /HTTP_REQUEST_TIMEOUT_MS must be a number/.test(e.message),
    );
    assert.throws(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '10' }), /HTTP_HEADERS_TIMEOUT_MS must be at least 100/);
  });
});

for (const dialect of dialects()) {
  describe(`request timeouts and unauthenticated body limits [${dialect}]`, () => {
    let key: string;
    let ai: FakeAi;
    let mcp: Client;
    before(async () => {
      ai = await startFakeAi('openai', 'sk-test-openai');
    });
    const { s, beforeClose } = useServer(dialect, {
      env: {
        HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
        HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
        EVENT_STREAM_HEARTBEAT_MS: '200',
        AI_PROVIDER: 'openai',
        AI_API_KEY: 'sk-test-openai',
        AI_MODEL: 'gpt-test',
      },
      lateOptions: () => ({ env: { AI_BASE_URL: ai.url } }),
    });
    before(async () => {
      key = (await s.user('business')).key;
      mcp = await httpClient(s, key);
    });
    beforeClose(() => mcp.close());
    after(async () => {
      await ai.close();
    });

    it('closes an unauthenticated upload that trickles its body (one byte every 200 ms) with 408', async () => {
      const head = 'POST /oauth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\n';
      const r = await trickle(s.url, head, 'grant_type=refresh_token&refresh_token='.padEnd(200, 'x'), 200);
      assert.ok(r.closedByServer, 'the server never closed the connection');
      assert.ok(r.ms >= REQUEST_MS - 50 && r.ms < REQUEST_MS + SLACK_MS, `closed after ${r.ms.toFixed(0)} ms`);
      assert.match(r.answer, /^HTTP\/1\.1 408 /);
    });

    it('closes a connection whose headers trickle in, after the headers timeout', async () => {
      const r = await trickle(s.url, 'GET /healthz HTTP/1.1\r\n', 'X-Slow: '.padEnd(200, 'y'), 100);
      assert.ok(r.closedByServer, 'the server never closed the connection');
      assert.ok(r.ms < HEADERS_MS + SLACK_MS, `closed after ${r.ms.toFixed(0)} ms`);
    });

    it('closes a connection that sends nothing at all, after the headers timeout', async () => {
      const r = await trickle(s.url, '', '', 100);
      assert.ok(r.closedByServer && r.ms < HEADERS_MS + SLACK_MS, `closed after ${r.ms.toFixed(0)} ms`);
    });

    it('closes an authenticated /v1 upload that trickles too (the timeout is for every request)', async () => {
      const head = `POST /v1/sheets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
      const r = await trickle(s.url, head, '{"title":"slow"}'.padEnd(100, ' '), 200);
      assert.ok(r.closedByServer && r.ms < REQUEST_MS + SLACK_MS, `closed after ${r.ms.toFixed(0)} ms`);
    });

    it(`bounds unauthenticated bodies to ${UNAUTHENTICATED_BODY_LIMIT / 1024} kB, authenticated ones keep 1 MiB`, async () => {
      const big = 'x'.repeat(UNAUTHENTICATED_BODY_LIMIT + 1);
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      // The OAuth endpoints answer in RFC 6749's error shape (400 invalid_request).
      for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/authorize']) {
        const r = await s.req('POST', path, { raw: `grant_type=refresh_token&refresh_token=${big}`, headers: form });
        assert.equal(r.status, 400, `${path}: ${r.status}`);
        assert.deepEqual(r.body, { error: 'invalid_request', error_description: 'Request body is too large' }, path);
      }
      const register = await s.req('POST', '/oauth/register', { body: { client_name: big, redirect_uris: ['http://127.0.0.1/cb'] } });
      assert.equal(register.status, 400);
      assert.match(register.body.error_description, /too large/);
      const signIn = await s.req('POST', '/console/session', { body: { api_key: big } });
      assert.equal(signIn.status, 413);
      assert.equal(signIn.body.code, 'payload_too_large');
      // Small ones are read as before.
      assert.equal((await s.req('POST', '/oauth/token', { raw: 'grant_type=password', headers: form })).body.error, 'unsupported_grant_type');
      const sheet = await s.req('POST', '/v1/sheets', { key, body: { title: 'Big enough', content: { col1: `<p>${'w '.repeat(100_000)}</p>` } } });
      assert.equal(sheet.status, 200);
    });

    it('does not cut the event stream, which outlives the request timeout several times', async () => {
      const stream = await openStream(`${s.url}/v1/events/stream`, { authorization: `Bearer ${key}` });
      try {
        assert.equal(stream.res.status, 200);
        await new Promise((r) => setTimeout(r, 3 * REQUEST_MS + SLACK_MS));
        const sheet = await s.req('POST', '/v1/sheets', { key, body: { title: 'After the timeout' } });
        const [event] = await stream.waitFor(1);
        assert.equal(event.event, 'sheet.created');
        assert.equal(event.data.data.sheet_id, sheet.body.id);
        assert.ok(stream.comments.length >= 10, `${stream.comments.length} heartbeats`);
      } finally {
        await stream.close();
      }
    });

    it('does not cut an MCP answer that takes longer than the request timeout', async () => {
      ai.mode = 'slow';
      ai.slowMs = 2 * REQUEST_MS + SLACK_MS;
      try {
        const started = performance.now();
        const r = ok(await mcp.callTool({ name: 'run_spark', arguments: { spark_id: 'spk_summarize', content: 'a slow answer' } }));
        assert.ok(performance.now() - started >= ai.slowMs);
        assert.equal(r.success, true);
      } finally {
        ai.mode = 'ok';
      }
    });
  });
}
