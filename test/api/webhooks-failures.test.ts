import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import { assertError, dialects, startServer, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { startReceiver, webhookEnv } from '../webhooks-helpers.js';
import { createSecretBox } from '../../src/webhook-delivery/secrets.js';

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((res) => srv.listen(0, '127.0.0.1', () => res()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((res) => srv.close(() => res()));
  return port;
}

for (const dialect of dialects()) {
  describe(`webhook network failures and plan checks [${dialect}]`, () => {
    const {
      s,
      users: { u },
    } = useServer(dialect, { env: webhookEnv(), users: { u: 'pro' } });

    /** Registers a webhook for `url`, sends the test event and returns its delivery as the log shows it. */
    async function tryOnce(url: string) {
      const hook = (await s.req('POST', '/v1/webhooks', { key: u.key, body: { url, events: ['*'] } })).body.webhook;
      const sent = await s.req('POST', `/v1/webhooks/${hook.id}/test`, { key: u.key });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const log = (await s.req('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: u.key })).body;
      await s.req('DELETE', `/v1/webhooks/${hook.id}`, { key: u.key });
      assert.equal(log.total, 1);
      assert.deepEqual(log.deliveries[0], sent.body.delivery, 'the answer is what the log recorded');
      return log.deliveries[0];
    }

    const assertFailed = (d: any, error: RegExp) => {
      assert.equal(d.status, 'failed');
      assert.equal(d.attempt_count, 1);
      assert.equal(d.attempts.length, 1);
      assert.equal(d.attempts[0].status_code, null);
      assert.equal(d.attempts[0].response_body, null);
      assert.match(d.attempts[0].error, error);
    };

    it('a name that does not resolve (.invalid) is a failed attempt naming the DNS error', async () => {
      assertFailed(await tryOnce('https://no-such-receiver.invalid/hook'), /ENOTFOUND.*no-such-receiver\.invalid/);
    });

    it('a refused connection is a failed attempt naming ECONNREFUSED', async () => {
      const port = await closedPort();
      assertFailed(await tryOnce(`https://127.0.0.1:${port}/hook`), new RegExp(`ECONNREFUSED.*127\\.0\\.0\\.1:${port}`));
    });

    it('a certificate no trusted CA signed is a failed attempt naming the TLS error, and nothing is sent', async () => {
      const rcv = await startReceiver('127.0.0.1', { selfSigned: true });
      try {
        assertFailed(await tryOnce(rcv.url), /SELF_SIGNED_CERT.*self-signed certificate/);
        assert.equal(rcv.received.length, 0, 'the body never left over an untrusted connection');
      } finally {
        await rcv.close();
      }
    });

    it('an account on the free plan gets 403 naming the Pro plan on enable, test and redeliver', async () => {
      const rcv = await startReceiver();
      try {
        const carol = await s.user('pro');
        const hook = (await s.req('POST', '/v1/webhooks', { key: carol.key, body: { url: rcv.url, events: ['*'] } })).body.webhook;
        const d = (await s.req('POST', `/v1/webhooks/${hook.id}/test`, { key: carol.key })).body.delivery;
        assert.equal(d.status, 'delivered');
        await s.c.accounts.setPlan(carol.userId, 'free');
        for (const [method, url] of [
          ['POST', `/v1/webhooks/${hook.id}/enable`],
          ['POST', `/v1/webhooks/${hook.id}/test`],
          ['POST', `/v1/webhooks/${hook.id}/deliveries/${d.id}/redeliver`],
        ]) {
          assertError(await s.req(method, url, { key: carol.key }), 403, 'plan_required', /Pro plan/);
        }
        assert.equal(rcv.received.length, 1, 'only the test sent while on Pro arrived');
        const log = (await s.req('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: carol.key })).body;
        assert.equal(log.total, 1, 'the refused test and redeliver queued nothing');
        assert.equal(log.deliveries[0].attempt_count, 1);
      } finally {
        await rcv.close();
      }
    });
  });

  describe(`SECRET_KEY encrypts webhook secrets [${dialect}]`, () => {
    it('a server with SECRET_KEY seals with it (no key file) and delivers; one with another SECRET_KEY cannot sign', async () => {
      const key = randomBytes(32).toString('hex');
      const rcv = await startReceiver();
      const a = await startServer(dialect, { env: webhookEnv({ SECRET_KEY: key }) });
      let b: TestServer | undefined;
      try {
        const u = await a.user('pro');
        const hook = (await a.req('POST', '/v1/webhooks', { key: u.key, body: { url: rcv.url, events: ['*'] } })).body.webhook;
        assert.equal(fs.existsSync(path.join(a.dataDir, 'secret.key')), false, 'no key generated: SECRET_KEY is the key');
        const row = await a.c.db.selectFrom('webhooks').select('secret_enc').where('id', '=', hook.id).executeTakeFirstOrThrow();
        assert.equal(createSecretBox(Buffer.from(key, 'hex')).decrypt(row.secret_enc), hook.secret, 'sealed under SECRET_KEY');
        assert.throws(() => createSecretBox(randomBytes(32)).decrypt(row.secret_enc));

        const ok = (await a.req('POST', `/v1/webhooks/${hook.id}/test`, { key: u.key })).body.delivery;
        assert.equal(ok.status, 'delivered');
        const [got] = await rcv.waitFor(1);
        assert.equal(await verify(hook.secret, got.raw.toString('utf8'), got.headers['x-service-signature'] as string), true);

        // Another server on the same database with another SECRET_KEY: the attempt fails, recorded, and nothing is sent.
        b = await startServer(dialect, {
          env: webhookEnv({ SECRET_KEY: randomBytes(32).toString('hex') }),
          dataDir: a.dataDir,
          databaseUrl: a.c.config.databaseUrl,
        });
        const bad = await b.req('POST', `/v1/webhooks/${hook.id}/test`, { key: u.key });
        assert.equal(bad.status, 200, JSON.stringify(bad.body));
        assert.equal(bad.body.delivery.status, 'failed');
        assert.equal(bad.body.delivery.attempts[0].status_code, null);
        assert.match(bad.body.delivery.attempts[0].error, /secret cannot be decrypted with this server's key \(SECRET_KEY/);
        assert.equal(rcv.received.length, 1);
      } finally {
        await b?.close();
        await a.close();
        await rcv.close();
      }
    });
  });
}
