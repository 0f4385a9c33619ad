import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { dialects, startServer, type TestServer } from './helpers.js';
import { httpClient, ok, sameErrorAsRest, toolError, without } from './mcp-helpers.js';

for (const dialect of dialects()) {
  describe(`MCP tools for Sparks and webhooks [${dialect}]`, () => {
    let s: TestServer;
    let alice: { key: string; userId: string };
    let mcp: Client;
    before(async () => {
      s = await startServer(dialect); // no AI provider configured
      alice = await s.user('pro');
      mcp = await httpClient(s, alice.key);
    });
    after(async () => {
      await mcp.close();
      await s.close();
    });
    const call = (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });
    const rest = (method: string, path: string, body?: unknown) => s.req(method, path, { key: alice.key, body });

    it('list_sparks and run_spark give what GET and POST /spark give, and fire spark.executed', async () => {
      const listed = ok(await call('list_sparks', {}));
      assert.deepEqual(without(listed, 'total', 'has_more'), (await rest('GET', '/v1/spark')).body);
      assert.equal(listed.total, listed.sparks.length);
      assert.equal(listed.has_more, false);

      const { id: sheetId } = ok(await call('create_sheet', { title: 'text' }));
      const args = { spark_id: 'spk_word_count', content: 'one two three', sheet_id: sheetId };
      const viaMcp = ok(await call('run_spark', args));
      const viaRest = (await rest('POST', '/v1/spark', args)).body;
      assert.deepEqual(viaMcp, viaRest);
      assert.equal(viaMcp.spark_name, 'Word count');
      const evs = (await s.events('spark.executed')).filter((e) => e.user_id === alice.userId);
      assert.equal(evs.length, 2);
      assert.deepEqual(without(evs[0].data, 'executed_at'), { spark_id: 'spk_word_count', spark_name: 'Word count', sheet_id: sheetId });

      sameErrorAsRest(await call('run_spark', { spark_id: 'spk_nope', content: 'x' }), await rest('POST', '/v1/spark', { spark_id: 'spk_nope', content: 'x' }));
      sameErrorAsRest(await call('run_spark', { spark_id: 'spk_word_count' }), await rest('POST', '/v1/spark', { spark_id: 'spk_word_count' }));
      // A model spark with no provider configured: 503, message saying how to configure one.
      const noAi = await call('run_spark', { spark_id: 'spk_summarize', content: 'x' });
      toolError(noAi, 503, 'provider_not_configured');
      sameErrorAsRest(noAi, await rest('POST', '/v1/spark', { spark_id: 'spk_summarize', content: 'x' }));
    });

    it('translate_text validates like POST /spark?action=translate', async () => {
      const bad = { content: 'hi', target_lang: 'xx' };
      sameErrorAsRest(await call('translate_text', bad), await rest('POST', '/v1/spark?action=translate', bad));
      const good = { content: 'hi', target_lang: 'ja' };
      const r = await call('translate_text', good);
      toolError(r, 503, 'provider_not_configured');
      sameErrorAsRest(r, await rest('POST', '/v1/spark?action=translate', good));
    });

    it('create_spark, get_spark, update_spark, delete_spark manage the user\'s own sparks', async () => {
      const made = ok(await call('create_spark', { name: 'Shout', prompt: 'Say loudly: {{content}}' }));
      assert.equal(made.spark.type, 'user');
      assert.deepEqual((await rest('GET', `/v1/spark/${made.id}`)).body.spark, made.spark);
      assert.equal(ok(await call('get_spark', { id: made.id })).spark.name, 'Shout');
      assert.equal(ok(await call('update_spark', { id: made.id, name: 'Yell' })).spark.name, 'Yell');
      assert.deepEqual(ok(await call('delete_spark', { id: made.id })), { success: true, id: made.id, deleted: true });
      sameErrorAsRest(await call('get_spark', { id: made.id }), await rest('GET', `/v1/spark/${made.id}`));
      const noPlaceholder = { name: 'x', prompt: 'no placeholder' };
      sameErrorAsRest(await call('create_spark', noPlaceholder), await rest('POST', '/v1/spark?action=create', noPlaceholder));
    });

    it('register_webhook, list_webhooks, list_webhook_deliveries, enable_webhook, delete_webhook work like /webhooks', async () => {
      const input = { url: 'https://hooks.example.com/sw', events: ['sheet.created', 'session.saved'], name: 'ci' };
      const made = ok(await call('register_webhook', input));
      assert.match(made.webhook.secret, /^whsec_/);
      assert.deepEqual(made.webhook.events, input.events);
      const listed = ok(await call('list_webhooks', {}));
      assert.deepEqual(without(listed, 'total', 'has_more'), (await rest('GET', '/v1/webhooks')).body);
      assert.deepEqual([listed.total, listed.has_more], [1, false]);
      assert.equal(JSON.stringify(listed).includes(made.webhook.secret), false, 'the secret is never listed');

      const deliveries = ok(await call('list_webhook_deliveries', { id: made.webhook.id, limit: 5 }));
      assert.deepEqual(without(deliveries, 'has_more'), (await rest('GET', `/v1/webhooks/${made.webhook.id}/deliveries?limit=5`)).body);
      assert.equal(deliveries.has_more, deliveries.total > deliveries.deliveries.length);

      assert.equal(ok(await call('enable_webhook', { id: made.webhook.id })).webhook.status, 'enabled');
      assert.deepEqual(ok(await call('delete_webhook', { id: made.webhook.id })), { success: true, id: made.webhook.id, deleted: true });
      assert.deepEqual((await rest('GET', '/v1/webhooks')).body.webhooks, []);

      for (const [name, args, method, path] of [
        ['delete_webhook', { id: made.webhook.id }, 'DELETE', `/v1/webhooks/${made.webhook.id}`],
        ['enable_webhook', { id: 'wh_nope' }, 'POST', '/v1/webhooks/wh_nope/enable'],
        ['list_webhook_deliveries', { id: 'wh_nope' }, 'GET', '/v1/webhooks/wh_nope/deliveries'],
        ['test_webhook', { id: 'wh_nope' }, 'POST', '/v1/webhooks/wh_nope/test'],
        ['redeliver_webhook_delivery', { id: 'wh_nope', delivery_id: 'dlv_nope' }, 'POST', '/v1/webhooks/wh_nope/deliveries/dlv_nope/redeliver'],
      ] as const) {
        sameErrorAsRest(await call(name, args), await rest(method, path));
      }
      const http = { url: 'http://hooks.example.com/x', events: ['*'] };
      sameErrorAsRest(await call('register_webhook', http), await rest('POST', '/v1/webhooks', http));
    });

    it('register_webhook on the free plan is the REST 403 naming the Pro plan', async () => {
      const free = await s.user('free');
      const client = await httpClient(s, free.key);
      const input = { url: 'https://hooks.example.com/sw', events: ['*'] };
      const r = await client.callTool({ name: 'register_webhook', arguments: input });
      assert.match(toolError(r, 403, 'plan_required').error, /Pro/);
      sameErrorAsRest(r, await s.req('POST', '/v1/webhooks', { key: free.key, body: input }));
      await client.close();
    });
  });
}
