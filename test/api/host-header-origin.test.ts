import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { dialects, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';

/**
 * Audit #31, finding 9: without PUBLIC_URL the Host header decided every absolute URL (issuer, token
 * endpoint, resource metadata, export links). Now only a loopback name or the address the connection
 * reached, with the listening port, is echoed; any other Host gets the listen address.
 */
function send(s: TestServer, method: string, path: string, host: string, o: { body?: unknown; headers?: Record<string, string> } = {}) {
  const url = new URL(s.url);
  const body = o.body === undefined ? undefined : JSON.stringify(o.body);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers: { host, ...(body ? { 'content-type': 'application/json' } : {}), ...o.headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* text */
        }
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const dialect of dialects()) {
  describe(`absolute URLs without PUBLIC_URL ignore a foreign Host header [${dialect}]`, () => {
    let port: string;
    let own: string;
    const {
      s,
      users: { alice },
    } = useServer(dialect, { users: { alice: 'pro' } });
    before(async () => {
      port = new URL(s.url).port;
      own = `http://127.0.0.1:${port}`;
    });

    const FOREIGN = () => ['evil.example', `evil.example:${port}`, 'evil.example:80', `localhost:${Number(port) + 1}`, `127.0.0.2:${port}`, `localhost.evil.example:${port}`, 'a b', ''];

    it('OAuth metadata names the listen address for any other Host', async () => {
      let checked = 0;
      for (const host of FOREIGN()) {
        const as = await send(s, 'GET', '/.well-known/oauth-authorization-server', host);
        if (as.status === 400) continue; // a Host the HTTP parser refuses never reaches the route
        assert.equal(as.status, 200, host);
        assert.equal(as.body.issuer, own, host);
        assert.equal(as.body.token_endpoint, `${own}/oauth/token`, host);
        assert.equal(as.body.authorization_endpoint, `${own}/oauth/authorize`, host);
        const prm = await send(s, 'GET', '/.well-known/oauth-protected-resource/mcp', host);
        assert.equal(prm.body.resource, `${own}/mcp`, host);
        assert.deepEqual(prm.body.authorization_servers, [own], host);
        checked++;
      }
      assert.ok(checked >= 6, `${checked} Host values reached the route`);
    });

    it('loopback names with the listening port are echoed', async () => {
      for (const name of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST']) {
        const as = await send(s, 'GET', '/.well-known/oauth-authorization-server', `${name}:${port}`);
        assert.equal(as.body.issuer, `http://${name.toLowerCase()}:${port}`, name);
      }
    });

    it('the 401 challenge on /mcp points at the listen address', async () => {
      const r = await send(s, 'POST', '/mcp', 'evil.example', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } });
      assert.equal(r.status, 401);
      assert.equal(r.headers['www-authenticate'], `Bearer resource_metadata="${own}/.well-known/oauth-protected-resource/mcp"`);
    });

    it('export links over REST and MCP start with the listen address', async () => {
      const sheet = await s.req('POST', '/v1/sheets', { key: alice.key, body: { title: 'h', content: { col1: '<p>x</p>' } } });
      const id = sheet.body.sheet.id;
      const auth = { authorization: `Bearer ${alice.key}` };
      const rest = await send(s, 'POST', `/v1/sheets/${id}/export`, 'evil.example', { body: { format: 'txt' }, headers: auth });
      assert.equal(rest.status, 200, JSON.stringify(rest.body));
      assert.ok(rest.body.url.startsWith(`${own}/exports/`), rest.body.url);
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'export_sheet', arguments: { id, format: 'txt' } } };
      const mcp = await send(s, 'POST', '/mcp', `evil.example:${port}`, { body: call, headers: { ...auth, accept: 'application/json, text/event-stream' } });
      assert.equal(mcp.status, 200, JSON.stringify(mcp.body));
      const result = JSON.parse(mcp.body.result.content[0].text);
      assert.ok(result.url.startsWith(`${own}/exports/`), result.url);
      const local = await send(s, 'POST', `/v1/sheets/${id}/export`, `localhost:${port}`, { body: { format: 'txt' }, headers: auth });
      assert.ok(local.body.url.startsWith(`http://localhost:${port}/exports/`), local.body.url);
    });
  });
}
