import net from 'node:net';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

const FIVE_MB = 5 * 1024 * 1024;

/** A 5 MB JSON body, sent the way Node's fetch (and most SDKs) send: no Expect: 100-continue. */
function bigSheet(): string {
  return JSON.stringify({ title: 'big', content: { col1: 'x'.repeat(FIVE_MB) } });
}

/**
 * Raw HTTP/1.1 request from a client that sends its whole body before it reads the answer (as many SDKs
 * do). Resolves with everything the server answered, or '' if the connection was reset under it.
 */
function rawPost(port: number, path: string, key: string, body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    let at = 0;
    const next = () => {
      if (socket.destroyed) return;
      if (at >= body.length) return void socket.resume();
      const chunk = body.subarray(at, (at += 64 * 1024));
      // A short pause between chunks, so the server has answered long before the upload ends.
      socket.write(chunk, () => setTimeout(next, 1));
    };
    next();
  });
}

for (const dialect of dialects()) {
  describe(`oversized bodies get their 413 [${dialect}]`, () => {
    const {
      s,
      users: { user },
    } = useServer(dialect, { users: { user: 'business' } });

    it('fetch POST of 5 MB to /v1/sheets reads the 413 JSON error every time', async () => {
      const body = bigSheet();
      for (let i = 0; i < 5; i++) {
        const res = await s.req('POST', '/v1/sheets', { key: user.key, raw: body, headers: { 'content-type': 'application/json' } });
        assertError(res, 413, 'payload_too_large', /1 MiB/);
      }
    });

    it('the same for /mcp, and several at once', async () => {
      const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_sheet', arguments: { title: 'big', content: { col1: 'x'.repeat(FIVE_MB) } } } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
      const all = await Promise.all([
        ...Array.from({ length: 3 }, () => s.req('POST', '/mcp', { key: user.key, raw: call, headers })),
        ...Array.from({ length: 3 }, () => s.req('POST', '/v1/sheets', { key: user.key, raw: bigSheet(), headers: { 'content-type': 'application/json' } })),
      ]);
      for (const res of all) assertError(res, 413, 'payload_too_large', /1 MiB/);
    });

    it('a chunked upload (no Content-Length) over the limit gets the 413 too', async () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ === 40) return controller.close();
          controller.enqueue(new TextEncoder().encode('x'.repeat(128 * 1024)));
        },
      });
      const res = await fetch(`${s.url}/v1/sheets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      assert.equal(res.status, 413);
      assert.equal((await res.json()).code, 'payload_too_large');
    });

    it('a client that reads only after sending everything still reads the 413; then the connection closes', async () => {
      const port = Number(new URL(s.url).port);
      for (const path of ['/v1/sheets', '/mcp']) {
        const answer = await rawPost(port, path, user.key, Buffer.from(bigSheet()));
        assert.match(answer, /^HTTP\/1\.1 413 /, `${path}: got ${JSON.stringify(answer.slice(0, 80))}`);
        assert.match(answer, /connection: close/i);
        assert.match(answer, /"code":"payload_too_large"/);
      }
      assert.equal((await s.req('GET', '/v1/sheets', { key: user.key })).status, 200);
    });
  });
}
