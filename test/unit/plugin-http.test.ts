// The hook's own HTTP/1.1 client (plugins/claude-code/scripts/http1.mjs) against real node:http and raw TCP servers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { exchange, parseResponse, preconnect } from '../plugin-modules.js';

const opts = (o: Partial<{ method: string; body: string; timeoutMs: number; maxBytes: number; headers: Record<string, string> }> = {}) => ({
  method: 'GET',
  headers: { authorization: 'Bearer sk_test', accept: 'application/json' },
  timeoutMs: 2000,
  maxBytes: 1024 * 1024,
  ...o,
});

async function listen(server: net.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

describe('plugin http1 client', () => {
  let base: string;
  const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url?.startsWith('/chunked')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"text":"');
        setTimeout(() => res.end('part two ✓"}'), 20);
        return;
      }
      if (req.url === '/refuse') return void res.writeHead(422, { 'content-type': 'application/json' }).end('{"code":"validation_failed"}');
      if (req.url === '/empty') return void res.writeHead(204).end();
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: body }));
    });
  });
  before(async () => {
    base = await listen(server);
  });
  after(() => server.close());

  it('sends method, path with query, headers and a JSON body; reads a content-length answer', async () => {
    const body = JSON.stringify({ todos: [{ content: 'naïve café', status: 'pending' }] });
    const res = await exchange(new URL(`${base}/v1/todos?project=a%20b`), opts({ method: 'POST', body, headers: { 'content-type': 'application/json' } }));
    assert.equal(res.status, 201);
    assert.deepEqual(JSON.parse(res.body.toString('utf8')), { echo: body });
    const last = seen.at(-1)!;
    assert.deepEqual([last.method, last.url, last.body, last.headers['content-type'], last.headers.connection], ['POST', '/v1/todos?project=a%20b', body, 'application/json', 'close']);
    assert.equal(Number(last.headers['content-length']), Buffer.byteLength(body));
  });

  it('reads a chunked answer that arrives in parts, a 4xx with its body, and a 204 without one', async () => {
    const chunked = await exchange(new URL(`${base}/chunked`), opts());
    assert.deepEqual([chunked.status, chunked.body.toString('utf8')], [200, '{"text":"part two ✓"}']);
    const refused = await exchange(new URL(`${base}/refuse`), opts());
    assert.deepEqual([refused.status, refused.body.toString()], [422, '{"code":"validation_failed"}']);
    const empty = await exchange(new URL(`${base}/empty`), opts());
    assert.deepEqual([empty.status, empty.body.length], [204, 0]);
  });

  it('a refused connection rejects with its code; a server that never answers times out on time', async () => {
    const closed = net.createServer();
    const url = await listen(closed);
    await new Promise((r) => closed.close(r));
    await assert.rejects(exchange(new URL(url), opts()), { code: 'ECONNREFUSED' });

    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => void sockets.push(s));
    const silentUrl = await listen(silent);
    const t0 = Date.now();
    await assert.rejects(exchange(new URL(`${silentUrl}/v1/briefing`), opts({ timeoutMs: 300 })), { code: 'ETIMEDOUT' });
    const took = Date.now() - t0;
    assert.ok(took >= 250 && took < 1500, `gave up after ${took} ms`);
    for (const s of sockets) s.destroy();
    silent.close();
  });

  it('a connection closed mid-answer is an error, not a short body; a header with a line break is never sent', async () => {
    const cut = net.createServer((s) => s.once('data', () => s.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"par')));
    const url = await listen(cut);
    const res = await exchange(new URL(url), opts());
    // The close ends the body: the hook treats what it got as the answer only with its status line intact.
    assert.deepEqual([res.status, res.body.toString()], [200, '{"par']);
    cut.close();
    const before = seen.length;
    await assert.rejects(exchange(new URL(`${base}/x`), opts({ headers: { authorization: 'Bearer a\r\nx-injected: 1' } })), { code: 'EINVALIDHEADER' });
    assert.equal(seen.length, before);
  });

  it('parseResponse waits for the whole answer and skips 100 Continue', () => {
    const full = Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4\r\nabcd\r\n3\r\nefg\r\n0\r\n\r\n');
    // Complete at the last chunk's size line; the empty trailer's CRLF after it is not waited for.
    for (let i = 0; i < full.length - 2; i++) assert.equal(parseResponse(full.subarray(0, i)), null, `complete after ${i} bytes`);
    assert.deepEqual(parseResponse(full), { status: 200, body: Buffer.from('abcdefg') });
    const noLength = Buffer.from('HTTP/1.0 200 OK\r\n\r\nuntil close');
    assert.equal(parseResponse(noLength), null);
    assert.equal(parseResponse(noLength, { ended: true })!.body.toString(), 'until close');
    assert.equal(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n0123456789'), { maxBytes: 4 })!.body.toString(), '0123');
  });

  it('preconnect: the next exchange with the same origin goes over the connection opened ahead, and only that one', async () => {
    const sockets: net.Socket[] = [];
    const counted = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    });
    counted.on('connection', (s) => sockets.push(s));
    const origin = await listen(counted);
    try {
      await preconnect(new URL(origin));
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(sockets.length, 1, 'preconnect opens the connection at once');
      const first = await exchange(new URL(`${origin}/v1/todos`), opts({ method: 'POST', body: '{}' }));
      assert.equal(first.status, 200);
      assert.equal(sockets.length, 1, 'the first exchange used the connection opened ahead');
      const second = await exchange(new URL(`${origin}/healthz`), opts());
      assert.equal(second.status, 200);
      assert.equal(sockets.length, 2, 'a later exchange opens its own');
    } finally {
      counted.close();
    }
  });

  it('preconnect to a port nobody listens on: no crash, and the next exchange rejects with the connection error', async () => {
    const probe = net.createServer();
    const closed = await listen(probe);
    await new Promise((r) => probe.close(r));
    await preconnect(new URL(closed));
    await new Promise((r) => setTimeout(r, 50)); // the refusal arrives before anyone asks
    await assert.rejects(exchange(new URL(`${closed}/v1/todos`), opts({ method: 'POST', body: '{}' })), (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED');
    // Taken once: a later exchange to the same closed port fails on its own connection attempt.
    await assert.rejects(exchange(new URL(`${closed}/x`), opts()), (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED');
  });
});
