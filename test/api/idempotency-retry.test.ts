import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { startFakeAi, type FakeAi } from '../sparks-fakes.js';

/** Only 2xx answers are kept: after a 5xx (the AI provider failing) the same key runs the request again. */
for (const dialect of dialects()) {
  describe(`Idempotency-Key after a 5xx [${dialect}]`, () => {
    let ai: FakeAi;
    before(async () => {
      ai = await startFakeAi('openai', 'sk-test-openai');
    });
    const {
      s,
      users: { alice },
    } = useServer(dialect, {
      users: { alice: 'business' },
      lateOptions: () => ({ env: { AI_PROVIDER: 'openai', AI_BASE_URL: ai.url, AI_API_KEY: 'sk-test-openai', AI_MODEL: 'gpt-test' } }),
    });
    after(async () => {
      await ai.close();
    });

    const run = () => s.req('POST', '/v1/spark', { key: alice.key, body: { spark_id: 'spk_summarize', content: 'A long text about cats.' }, headers: { 'idempotency-key': 'summary-1' } });
    const runs = async () => (await s.c.db.selectFrom('spark_runs').select('id').where('user_id', '=', alice.userId).execute()).length;

    it('a 502 is not kept: the retry with the same key reaches the provider, runs once, and is replayed after', async () => {
      ai.mode = 'http-500';
      assertError(await run(), 502, 'provider_error');
      assert.equal(await runs(), 0);
      const asked = ai.requests.length;
      ai.mode = 'ok';
      ai.reply = 'Cats, briefly.';
      const retry = await run();
      assert.equal(retry.status, 200, JSON.stringify(retry.body));
      assert.equal(retry.headers.get('idempotent-replayed'), null);
      assert.equal(retry.body.result, 'Cats, briefly.');
      assert.equal(ai.requests.length, asked + 1, 'the retry reached the provider');
      const replay = await run();
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, retry.body);
      assert.equal(ai.requests.length, asked + 1, 'the replay did not');
      assert.equal(await runs(), 1);
    });
  });
}
