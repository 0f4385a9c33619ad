import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { verify } from '@octokit/webhooks-methods';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok, sameErrorAsRest, toolError, without } from '../mcp-helpers.js';
import { startFakeAi, type FakeAi } from '../sparks-fakes.js';
import { startReceiver, webhookEnv, type Receiver } from '../webhooks-helpers.js';

for (const dialect of dialects()) {
  describe(`MCP tools for Sparks and webhooks [${dialect}]`, () => {
    let mcp: Client;
    // no AI provider configured
    const {
      s,
      users: { alice },
      beforeClose,
    } = useServer(dialect, { users: { alice: 'pro' } });
    before(async () => {
      mcp = await httpClient(s, alice.key);
    });
    beforeClose(() => mcp.close());
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
      const evs = (await s.events('spark.executed')).filter((e) => e.workspace_id === alice.personalWorkspace);
      assert.equal(evs.length, 2);
      assert.deepEqual(without(evs[0].data, 'executed_at'), {
        spark_id: 'spk_word_count',
        spark_name: 'Word count',
        sheet_id: sheetId,
        ...{ workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId },
      });

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

    it("create_spark, get_spark, update_spark, delete_spark manage the user's own sparks", async () => {
      const made = ok(await call('create_spark', { name: 'Shout', prompt: 'Say loudly: {{content}}' }));
      assert.equal(made.spark.type, 'user');
      assert.deepEqual((await rest('GET', `/v1/spark/${made.id}`)).body.spark, made.spark);
      assert.equal(ok(await call('get_spark', { id: made.id })).spark.name, 'Shout');
      assert.equal(ok(await call('update_spark', { id: made.id, name: 'Yell' })).spark.name, 'Yell');
      assert.deepEqual(ok(await call('delete_spark', { id: made.id })), { success: true, id: made.id, deleted: true });
      sameErrorAsRest(await call('get_spark', { id: made.id }), await rest('GET', `/v1/spark/${made.id}`));
      // Issue 16: a prompt without {{content}} is accepted (the text is appended after it), as over REST.
      const plain = ok(await call('create_spark', { name: 'x', prompt: 'no placeholder' }));
      assert.equal(plain.spark.prompt, 'no placeholder');
      assert.deepEqual((await rest('GET', `/v1/spark/${plain.id}`)).body.spark, plain.spark);
      const blank = { name: 'x', prompt: '   ' };
      const refused = await call('create_spark', blank);
      assert.match(toolError(refused, 400, 'invalid_request').error, /prompt/);
      sameErrorAsRest(refused, await rest('POST', '/v1/spark?action=create', blank));
    });

    it("update_spark and delete_spark errors, and another account's spark: the same 400/403/404 as REST", async () => {
      const mine = ok(await call('create_spark', { name: 'Mine', prompt: 'Do: {{content}}' }));
      const bob = await s.user('pro');
      const bobs = (await s.req('POST', '/v1/spark?action=create', { key: bob.key, body: { name: 'Bobs', prompt: 'Secret: {{content}}' } })).body.id;
      const unknown = 'spk_01jzzzzzzzzzzzzzzzzzzzzzzz';
      const before = (await s.events()).length;
      const cases: [string, Record<string, unknown>, string, string, unknown?, number?][] = [
        ['update_spark', { id: mine.id, prompt: ' ' }, 'PUT', `/v1/spark/${mine.id}`, { prompt: ' ' }, 400],
        ['update_spark', { id: mine.id, category: 'fun' }, 'PUT', `/v1/spark/${mine.id}`, { category: 'fun' }, 400],
        ['update_spark', { id: 'spk_summarize', name: 'x' }, 'PUT', '/v1/spark/spk_summarize', { name: 'x' }, 403],
        ['update_spark', { id: unknown, name: 'x' }, 'PUT', `/v1/spark/${unknown}`, { name: 'x' }, 404],
        ['delete_spark', { id: 'spk_word_count' }, 'DELETE', '/v1/spark/spk_word_count', undefined, 403],
        ['delete_spark', { id: unknown }, 'DELETE', `/v1/spark/${unknown}`, undefined, 404],
        // Another account's spark.
        ['get_spark', { id: bobs }, 'GET', `/v1/spark/${bobs}`, undefined, 403],
        ['update_spark', { id: bobs, name: 'taken' }, 'PUT', `/v1/spark/${bobs}`, { name: 'taken' }, 403],
        ['delete_spark', { id: bobs }, 'DELETE', `/v1/spark/${bobs}`, undefined, 403],
        ['run_spark', { spark_id: bobs, content: 'x' }, 'POST', '/v1/spark', { spark_id: bobs, content: 'x' }, 403],
      ];
      for (const [name, args, method, path, body, status] of cases) {
        const r = await call(name, args);
        assert.equal(toolError(r, status!, status === 400 ? 'invalid_request' : status === 403 ? 'forbidden' : 'not_found').error.length > 0, true);
        sameErrorAsRest(r, await rest(method, path, body));
      }
      assert.equal((await s.events()).length, before, 'no spark.executed for a refused run');
      const still = (await s.req('GET', `/v1/spark/${bobs}`, { key: bob.key })).body.spark;
      assert.deepEqual([still.name, still.prompt], ['Bobs', 'Secret: {{content}}']);
      assert.equal(ok(await call('get_spark', { id: mine.id })).spark.prompt, 'Do: {{content}}');
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

/** The success paths that reach the outside: an AI provider (loopback fake) and a webhook receiver (loopback HTTPS). */
for (const dialect of dialects()) {
  describe(`MCP tools that reach a provider or a receiver [${dialect}]`, () => {
    let ai: FakeAi;
    let rcv: Receiver;
    let mcp: Client;
    before(async () => {
      [ai, rcv] = await Promise.all([startFakeAi('openai', 'sk-test-openai'), startReceiver()]);
    });
    const {
      s,
      users: { alice },
      beforeClose,
    } = useServer(dialect, {
      users: { alice: 'pro' },
      worker: { pollMs: 50 },
      lateOptions: () => ({ env: webhookEnv({ AI_PROVIDER: 'openai', AI_BASE_URL: ai.url, AI_API_KEY: 'sk-test-openai', AI_MODEL: 'gpt-test' }) }),
    });
    before(async () => {
      mcp = await httpClient(s, alice.key);
    });
    beforeClose(() => mcp.close());
    after(async () => {
      await Promise.all([ai.close(), rcv.close()]);
    });
    const call = (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });

    it('translate_text returns what POST /spark?action=translate returns, from the provider, and fires spark.executed', async () => {
      ai.reply = '<p>こんにちは</p>';
      const args = { content: '<p>Hello</p>', target_lang: 'ja' };
      const viaMcp = ok(await call('translate_text', args));
      assert.deepEqual(viaMcp, { success: true, target_lang: 'ja', result: '<p>こんにちは</p>' });
      const sent = ai.requests.at(-1)!;
      assert.equal(sent.headers.authorization, 'Bearer sk-test-openai');
      assert.equal(sent.body.model, 'gpt-test');
      assert.match(sent.body.messages[0].content, /Translate the content into Japanese \(language code "ja"\)/);
      assert.equal(sent.body.messages[1].content, '<content>\n<p>Hello</p>\n</content>');
      assert.deepEqual(viaMcp, (await s.req('POST', '/v1/spark?action=translate', { key: alice.key, body: args })).body);
      const evs = (await s.events('spark.executed')).filter((e) => e.workspace_id === alice.personalWorkspace);
      assert.deepEqual(
        evs.map((e) => without(e.data, 'executed_at')),
        [
          { spark_id: 'translate', spark_name: 'Translate', sheet_id: null, ...{ workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId } },
          { spark_id: 'translate', spark_name: 'Translate', sheet_id: null, ...{ workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId } },
        ],
      );
      ai.mode = 'http-500';
      const failed = await call('translate_text', args);
      toolError(failed, 502, 'provider_error');
      sameErrorAsRest(failed, await s.req('POST', '/v1/spark?action=translate', { key: alice.key, body: args }));
      ai.mode = 'ok';
    });

    it('test_webhook sends a signed webhook.test to the receiver; redeliver_webhook_delivery sends a past delivery again', async () => {
      const hook = ok(await call('register_webhook', { url: rcv.url, events: ['sheet.created'] })).webhook;
      const tested = ok(await call('test_webhook', { id: hook.id })).delivery;
      assert.equal(tested.event, 'webhook.test');
      assert.equal(tested.status, 'delivered');
      assert.equal(tested.attempts[0].status_code, 200);
      const [got] = await rcv.waitFor(1);
      assert.equal(got.headers['x-service-delivery'], tested.id);
      assert.equal(got.headers['x-service-event'], 'webhook.test');
      assert.deepEqual(got.body.data, { webhook_id: hook.id, message: 'Test delivery from Sheet Workspace' });
      assert.equal(await verify(hook.secret, got.raw.toString('utf8'), got.headers['x-service-signature'] as string), true);
      const log = (await s.req('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: alice.key })).body.deliveries;
      assert.deepEqual(
        log.find((d: any) => d.id === tested.id),
        tested,
      );

      // A real event, delivered by the worker, then sent again on request: the same delivery id arrives twice.
      const sheet = ok(await call('create_sheet', { title: 'hooked' }));
      const [, first] = await rcv.waitFor(2);
      assert.equal(first.body.data.sheet_id, sheet.id);
      const deliveryId = first.headers['x-service-delivery'] as string;
      await s.worker!.idle();
      const again = ok(await call('redeliver_webhook_delivery', { id: hook.id, delivery_id: deliveryId })).delivery;
      assert.equal(again.id, deliveryId);
      assert.equal(again.status, 'pending');
      const [, , resent] = await rcv.waitFor(3);
      assert.equal(resent.headers['x-service-delivery'], deliveryId);
      assert.deepEqual(resent.body.data, first.body.data);
      await s.worker!.idle();
      const after = (await s.req('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: alice.key })).body.deliveries.find((d: any) => d.id === deliveryId);
      assert.equal(after.status, 'delivered');
      assert.equal(after.attempt_count, 2);
    });
  });
}
