import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';

const TOKEN = 'metrics-token-0123456789abcdef';

for (const dialect of dialects()) {
  describe(`/metrics is not public [${dialect}]`, () => {
    describe('with METRICS_TOKEN', () => {
      const { s } = useServer(dialect, { env: { METRICS_TOKEN: TOKEN } });

      it('needs Authorization: Bearer <METRICS_TOKEN>, even from loopback', async () => {
        const none = await s.req('GET', '/metrics');
        assertError(none, 401, 'unauthorized', /METRICS_TOKEN/);
        assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="metrics"');
        assertError(await s.req('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } }), 401, 'unauthorized');
        assertError(await s.req('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN.slice(1)}` } }), 401, 'unauthorized');
        assertError(await s.req('GET', '/metrics', { headers: { authorization: TOKEN } }), 401, 'unauthorized');
        // An API key is not a metrics credential.
        const user = await s.user('business');
        assertError(await s.req('GET', '/metrics', { key: user.key }), 401, 'unauthorized');
        const ok = await s.req('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
        assert.equal(ok.status, 200);
        assert.match(ok.body, /# TYPE http_requests_total counter/);
      });
    });

    describe('without METRICS_TOKEN, behind a trusted proxy', () => {
      const { s } = useServer(dialect, { env: { TRUST_PROXY: '127.0.0.1' } });

      it('serves direct loopback clients only: a forwarded request is refused even when it claims loopback', async () => {
        assert.equal((await s.req('GET', '/metrics')).status, 200);
        // A proxy on the same host connects from loopback for every client, so its headers must not make one local.
        for (const remote of ['127.0.0.1', '::1', '203.0.113.7', '10.0.0.5', '::ffff:8.8.8.8', '127.0.0.1, 203.0.113.7']) {
          assertError(await s.req('GET', '/metrics', { headers: { 'x-forwarded-for': remote } }), 403, 'forbidden', /METRICS_TOKEN/);
        }
        assertError(await s.req('GET', '/metrics', { headers: { forwarded: 'for=127.0.0.1' } }), 403, 'forbidden');
      });
    });

    describe('without METRICS_TOKEN or TRUST_PROXY', () => {
      const { s } = useServer(dialect);

      it('a plain loopback request is served; any forwarded one is refused', async () => {
        assert.equal((await s.req('GET', '/metrics')).status, 200);
        assertError(await s.req('GET', '/metrics', { headers: { 'x-forwarded-for': '127.0.0.1' } }), 403, 'forbidden');
      });
    });
  });
}
