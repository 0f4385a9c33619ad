import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { acceptableRedirectUri, redirectMatches } from '../../src/modules/oauth/oauth.clients.js';
import { dialects } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { authorizeUrl, openConsent, pkce, register, submitConsent, token } from '../oauth-helpers.js';

/**
 * Audit #31, finding 10: a registered loopback redirect matched any URI that WHATWG URL parsing
 * normalised to it. Redirects are compared as raw strings; only a loopback redirect's port may vary.
 */
const REGISTERED = 'http://127.0.0.1:3000/cb';
const VARIANTS = [
  'http://127.1:3000/cb',
  'http://2130706433:3000/cb',
  'http://0x7f000001:3000/cb',
  'http://evil@127.0.0.1:3000/cb',
  'http://127.0.0.1:3000/cb#frag',
  'http://127.0.0.1:3000/x/../cb',
  'http://127.0.0.1:3000/%63b',
  'http://127.0.0.1:3000/cb/',
  'http://127.0.0.1:3000//cb',
  'HTTP://127.0.0.1:3000/cb',
  'http://127.0.0.1:3000/cb?',
  'http://127.0.0.1:3000/cb?x=1',
  'http://localhost:3000/cb',
  'http://[::1]:3000/cb',
  'http://127.0.0.1.:3000/cb',
  'http://127.0.0.1:3000\\cb',
  'http://127.0.0.1:3000/CB',
];

describe('loopback redirect_uri matching (raw strings, port aside)', () => {
  it('accepts the registered URI and the same URI on any other port', () => {
    assert.ok(redirectMatches([REGISTERED], REGISTERED));
    assert.ok(redirectMatches([REGISTERED], 'http://127.0.0.1:51234/cb'));
    assert.ok(redirectMatches([REGISTERED], 'http://127.0.0.1/cb'), 'no port is a port too');
    assert.ok(redirectMatches(['http://[::1]:8080/cb?app=1'], 'http://[::1]:9/cb?app=1'));
    assert.ok(redirectMatches(['http://localhost/cb'], 'http://localhost:7777/cb'));
  });

  it('refuses every normalised spelling of it', () => {
    for (const v of VARIANTS) assert.equal(redirectMatches([REGISTERED], v), false, v);
  });

  it('https and app schemes match only exactly', () => {
    assert.ok(redirectMatches(['https://app.example/cb'], 'https://app.example/cb'));
    assert.equal(redirectMatches(['https://app.example/cb'], 'https://app.example:444/cb'), false);
    assert.equal(redirectMatches(['https://app.example/cb'], 'https://APP.example/cb'), false);
    assert.equal(redirectMatches(['cursor://cb'], 'cursor://cb/'), false);
  });

  it('registration refuses loopback spellings that only a parser reads as loopback', () => {
    assert.ok(acceptableRedirectUri(REGISTERED));
    for (const v of ['http://127.1:3000/cb', 'http://2130706433/cb', 'http://evil@127.0.0.1/cb', 'http://127.0.0.1/cb#x', 'HTTP://localhost/cb']) {
      assert.equal(acceptableRedirectUri(v), false, v);
    }
  });
});

for (const dialect of dialects()) {
  describe(`authorize and token refuse normalised loopback redirects [${dialect}]`, () => {
    const {
      s,
      users: { alice },
    } = useServer(dialect, { users: { alice: 'pro' } });

    it('the consent page answers 400 for each variant and never redirects there', async () => {
      const { client_id } = await register(s, REGISTERED);
      const base = { response_type: 'code', client_id, code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 's' };
      for (const v of VARIANTS) {
        const r = await fetch(authorizeUrl(s, { ...base, redirect_uri: v }), { redirect: 'manual' });
        assert.equal(r.status, 400, `${v} -> ${r.status} ${r.headers.get('location')}`);
        assert.match(await r.text(), /redirect_uri is missing or is not one this client registered/);
      }
      const otherPort = await fetch(authorizeUrl(s, { ...base, redirect_uri: 'http://127.0.0.1:4000/cb' }), { redirect: 'manual' });
      assert.equal(otherPort.status, 200, 'another port of the registered loopback redirect');
    });

    it('a code issued for another port is exchanged only with that exact redirect_uri', async () => {
      const { client_id } = await register(s, REGISTERED);
      const { verifier, challenge } = pkce();
      const used = 'http://127.0.0.1:4001/cb';
      const page = await openConsent(String(authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: used, code_challenge: challenge, code_challenge_method: 'S256', scope: 'sheets:read' })));
      const r = await submitConsent(s, page, { key: alice.key });
      assert.equal(r.res.status, 302, r.text);
      assert.equal(`${r.location!.origin}${r.location!.pathname}`, used);
      const code = r.location!.searchParams.get('code')!;
      const wrong = await token(s, { grant_type: 'authorization_code', code, client_id, redirect_uri: 'http://127.1:4001/cb', code_verifier: verifier });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.error, 'invalid_grant');
      const ok = await token(s, { grant_type: 'authorization_code', code, client_id, redirect_uri: used, code_verifier: verifier });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });
  });
}
