import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, toolError } from '../mcp-helpers.js';

// Issue 36.2: errors in the API's words, naming the setting or the credential that would lift them.
for (const dialect of dialects()) {
  describe(`errors say what to do [${dialect}]`, () => {
    let key: string;
    const { s } = useServer(dialect);
    before(async () => {
      ({ key } = await s.user('pro'));
    });

    it('validation speaks the API, not the schema library', async () => {
      const content = await s.req('POST', '/v1/sheets', { key, body: { title: 't', content: '<p>x</p>' } });
      assertError(content, 400, 'invalid_request', /content must be an object of column keys \(col1\.\.col99\) to HTML strings/);
      assert.doesNotMatch(content.body.error, /record|Invalid input/);
      const tags = await s.req('POST', '/v1/sheets', { key, body: { title: 't', tags: 'a,b' } });
      assertError(tags, 400, 'invalid_request', /field 'tags': must be an array, not a string/);
    });

    it('MCP tools word validation the same way', async () => {
      const mcp = await httpClient(s, key);
      try {
        const content = toolError(await mcp.callTool({ name: 'create_sheet', arguments: { title: 't', content: '<p>x</p>' } }), 400, 'invalid_request');
        assert.match(content.error, /content must be an object of column keys \(col1\.\.col99\) to HTML strings/);
        const tags = toolError(await mcp.callTool({ name: 'create_sheet', arguments: { title: 't', tags: 'a,b' } }), 400, 'invalid_request');
        assert.match(tags.error, /field 'tags': must be an array, not a string/);
      } finally {
        await mcp.close();
      }
    });

    it('a webhook test to a loopback receiver names WEBHOOK_ALLOW_PRIVATE_TARGETS', async () => {
      const made = await s.req('POST', '/v1/webhooks', { key, body: { url: 'https://127.0.0.1:9/hook', events: ['sheet.created'] } });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const id = made.body.id ?? made.body.webhook?.id;
      const tested = await s.req('POST', `/v1/webhooks/${id}/test`, { key });
      assert.equal(tested.status, 200, JSON.stringify(tested.body));
      assert.match(tested.body.delivery.attempts[0].error, /WEBHOOK_ALLOW_PRIVATE_TARGETS=1/);
    });

    it('a scoped key at console sign-in hears that the console needs a full-access key', async () => {
      const scoped = await s.req('POST', '/v1/api-keys', { key, body: { name: 'ro', scopes: ['sheets:read'] } });
      const res = await s.req('POST', '/console/session', { body: { api_key: scoped.body.api_key }, headers: { 'x-console': '1' } });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'insufficient_scope');
      assert.match(res.body.error, /console needs a full-access API key \(scope \*\); this key is limited to sheets:read/);
    });
  });
}
