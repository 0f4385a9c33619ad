import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { startReceiver, testPki, type Receiver } from '../webhooks-helpers.js';
import tls from 'node:tls';
import { request } from 'undici';
import { addressRange, createWebhookDispatcher, isPublicUnicast } from '../../src/webhook-delivery/ssrf-dispatcher.js';

describe('webhook dispatcher TLS', () => {
  it('shares one TLS context among its connections, with or without extra CAs (not one built per connection)', async (t) => {
    const create = tls.createSecureContext;
    let built = 0;
    tls.createSecureContext = (...args: Parameters<typeof create>) => ((built += 1), create(...args));
    t.after(() => {
      tls.createSecureContext = create;
    });
    const rcv = await startReceiver();
    t.after(() => rcv.close());
    for (const ca of [undefined, testPki().caFile]) {
      const dispatcher = createWebhookDispatcher({ allowPrivate: true, connectTimeoutMs: 2000, ca: ca && (await import('node:fs')).readFileSync(ca, 'utf8') });
      built = 0;
      // Each request on a fresh connection: the receiver's port closed after the first, and a closed port.
      for (let i = 0; i < 5; i++) await request('https://127.0.0.1:1/hook', { method: 'POST', body: 'x', dispatcher }).catch(() => undefined);
      if (ca) {
        const ok = await request(rcv.url, { method: 'POST', body: '{}', dispatcher });
        assert.equal(ok.statusCode, 200);
        await ok.body.text();
      }
      await dispatcher.close();
      // The dispatcher's own context is built before the count starts; tls.connect built one per connection before.
      assert.equal(built, 0, `TLS contexts built by connections ${ca ? 'with' : 'without'} a CA file: ${built}`);
    }
  });
});

describe('SSRF address classification', () => {
  it('passes only public unicast; IPv4-mapped and -translated IPv6 are judged as their IPv4', () => {
    const allowed = ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '::ffff:0:8.8.8.8'];
    for (const ok of allowed) assert.equal(isPublicUnicast(ok), true, ok);
    const refused: Record<string, string> = {
      '127.0.0.1': 'loopback',
      '10.1.2.3': 'private',
      '172.16.5.4': 'private',
      '192.168.0.10': 'private',
      '169.254.169.254': 'linkLocal',
      '100.64.0.1': 'carrierGradeNat',
      '0.0.0.0': 'unspecified',
      '::1': 'loopback',
      '::': 'unspecified',
      'fc00::1': 'uniqueLocal',
      'fd12:3456::1': 'uniqueLocal',
      'fe80::1': 'linkLocal',
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:10.0.0.1': 'private',
      '::ffff:169.254.169.254': 'linkLocal',
      '224.0.0.1': 'multicast',
      '255.255.255.255': 'broadcast',
      '::ffff:0:127.0.0.1': 'loopback',
      '::ffff:0:10.0.0.1': 'private',
      // IPv4-compatible (::/96): ipaddr.js calls these "unicast"; "::1.2.3.4" it even misreads as ::ffff:1.2.3.4.
      // One carrying a refused IPv4 is refused as that IPv4; one carrying a public IPv4 is refused all the same.
      '::7f00:1': 'loopback',
      '::127.0.0.1': 'loopback',
      '::a00:1': 'private',
      '::169.254.169.254': 'linkLocal',
      '::1.2.3.4': 'ipv4Compatible',
      '::102:304': 'ipv4Compatible',
      '::8.8.8.8': 'ipv4Compatible',
      '::2': 'unspecified',
      // The rest of ::/8 and everything outside 2000::/3.
      '::1:0:0:1': 'reserved',
      '1::1': 'reserved',
      '100::1': 'discard',
      // NAT64 (64:ff9b::/96): the IPv4 in the last 32 bits.
      '64:ff9b::7f00:1': 'loopback',
      '64:ff9b::10.0.0.1': 'private',
      '64:ff9b::a9fe:a9fe': 'linkLocal',
      '64:ff9b::808:808': 'rfc6052',
      '4000::1': 'reserved',
      'c000::1': 'reserved',
      'fec0::1': 'deprecatedSiteLocal',
      'ff02::1': 'multicast',
      'fe80::1%eth0': 'linkLocal',
      // Special-purpose blocks inside 2000::/3.
      '2001:db8::1': 'reserved',
      '3fff::1': 'reserved',
      // Teredo (2001::/32): server IPv4 in bits 32-63, client IPv4 in the last 32 bits XOR 0xffffffff.
      '2001::1': 'unspecified',
      '2001:0:4136:e378:8000:63bf:80ff:fffe': 'loopback',
      '2001:0:4136:e378:8000:63bf:f5ff:fffe': 'private',
      '2001:0:a00:1:8000:63bf:3fe3:f7f7': 'private',
      '2001:0:4136:e378:8000:63bf:3fe3:f7f7': 'teredo',
      // 6to4 (2002::/16): the IPv4 in bits 16-47.
      '2002:7f00:1::1': 'loopback',
      '2002:a9fe:a9fe::1': 'linkLocal',
      '2002:c0a8:101::1': 'private',
      '2002:808:808::1': '6to4',
      '2001:2::1': 'benchmarking',
      // Not a strict address form: refused rather than guessed at.
      '2130706433': 'invalid',
      localhost: 'invalid',
    };
    for (const [addr, range] of Object.entries(refused)) {
      assert.equal(isPublicUnicast(addr), false, addr);
      assert.equal(addressRange(addr), range, addr);
    }
  });
});

for (const dialect of dialects()) {
  describe(`SSRF guard at connect time [${dialect}]`, () => {
    let rcv: Receiver;
    let u: { key: string; userId: string; personalWorkspace: string };
    // The guard is on: no WEBHOOK_ALLOW_PRIVATE_TARGETS. The test CA is trusted, so only the guard can refuse.
    const { s } = useServer(dialect, { env: { WEBHOOK_CA_FILE: testPki().caFile }, worker: { pollMs: 20 } });
    before(async () => {
      rcv = await startReceiver();
      u = await s.user('business');
    });
    after(async () => {
      await rcv.close();
    });

    const port = () => rcv.port;
    const cases = (): [string, string][] => [
      [`https://127.0.0.1:${port()}/hook`, 'loopback'],
      [`https://localhost:${port()}/hook`, 'loopback'],
      [`https://2130706433:${port()}/hook`, 'loopback'],
      [`https://0x7f000001:${port()}/hook`, 'loopback'],
      ['https://10.0.0.1/hook', 'private'],
      ['https://172.16.0.1/hook', 'private'],
      ['https://192.168.1.1/hook', 'private'],
      ['https://169.254.169.254/latest/meta-data/', 'linkLocal'],
      ['https://100.64.0.1/hook', 'carrierGradeNat'],
      [`https://0.0.0.0:${port()}/hook`, 'unspecified'],
      [`https://[::1]:${port()}/hook`, 'loopback'],
      ['https://[fc00::1]/hook', 'uniqueLocal'],
      ['https://[fe80::1]/hook', 'linkLocal'],
      [`https://[::ffff:127.0.0.1]:${port()}/hook`, 'loopback'],
      [`https://[::ffff:0:127.0.0.1]:${port()}/hook`, 'loopback'],
      // IPv6 forms carrying an IPv4 are refused as that IPv4; Node turns [::127.0.0.1] into [::7f00:1].
      [`https://[::127.0.0.1]:${port()}/hook`, 'loopback'],
      [`https://[::7f00:1]:${port()}/hook`, 'loopback'],
      ['https://[::1.2.3.4]/hook', 'ipv4Compatible'],
      ['https://[::1:0:0:1]/hook', 'reserved'],
      [`https://[64:ff9b::7f00:1]:${port()}/hook`, 'loopback'],
      ['https://[64:ff9b::808:808]/hook', 'rfc6052'],
      [`https://[2002:7f00:1::1]:${port()}/hook`, 'loopback'],
      ['https://[2002:a9fe:a9fe::1]/latest/meta-data/', 'linkLocal'],
      ['https://[2002:808:808::1]/hook', '6to4'],
      [`https://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${port()}/hook`, 'loopback'],
      ['https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook', 'private'],
      ['https://[2001:0:4136:e378:8000:63bf:3fe3:f7f7]/hook', 'teredo'],
      ['https://[100::1]/hook', 'discard'],
      ['https://[4000::1]/hook', 'reserved'],
      ['https://[fec0::1]/hook', 'deprecatedSiteLocal'],
      ['https://[2001:db8::1]/hook', 'reserved'],
    ];

    it('refuses every non-public target when connecting, and the receiver on loopback gets nothing', async () => {
      for (const [url, range] of cases()) {
        const hook = await s.req('POST', '/v1/webhooks', { key: u.key, body: { url, events: ['sheet.deleted'] } });
        assert.equal(hook.status, 200, `${url} registers (the check is at connect time)`);
        const r = await s.req('POST', `/v1/webhooks/${hook.body.webhook.id}/test`, { key: u.key });
        const d = r.body.delivery;
        assert.equal(d.status, 'failed', url);
        assert.equal(d.attempts[0].status_code, null, url);
        assert.match(d.attempts[0].error, new RegExp(`refused to connect.*${range} addresses are not allowed`), url);
        assert.ok(d.attempts[0].duration_ms < 2000, `${url} refused at once, not timed out`);
        await s.req('DELETE', `/v1/webhooks/${hook.body.webhook.id}`, { key: u.key });
      }
      assert.equal(rcv.received.length, 0);
    });

    it('an event delivery to a hostname resolving to 127.0.0.1 is refused and logged like any failure', async () => {
      const hook = (await s.req('POST', '/v1/webhooks', { key: u.key, body: { url: `https://localhost:${port()}/hook`, events: ['sheet.created'] } })).body.webhook;
      await s.req('POST', '/v1/sheets', { key: u.key, body: { title: 'ssrf' } });
      await s.worker!.idle();
      let log: any;
      for (let i = 0; i < 100; i++) {
        log = (await s.req('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: u.key })).body;
        if (log.deliveries[0]?.attempts.length) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const d = log.deliveries[0];
      assert.equal(d.status, 'pending', 'it will be retried on the schedule');
      assert.match(d.attempts[0].error, /refused to connect to localhost \(127\.0\.0\.1\)/);
      assert.equal(rcv.received.length, 0);
    });
  });
}
