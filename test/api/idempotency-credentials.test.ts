import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock } from '../../src/clock.js';
import { assertError, dialects, type Res } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { httpClient, ok } from '../mcp-helpers.js';
import { REDIRECT, authorizeUrl, openConsent, pkce, register, submitConsent, token } from '../oauth-helpers.js';

/**
 * Issue 31, finding 2: a stored answer belongs to the credential that sent the Idempotency-Key. Another
 * credential of the same account with the same key and body runs its own request under its own scopes
 * (here: refused with 403), and never receives the first credential's answer.
 */
for (const dialect of dialects()) {
  describe(`Idempotency-Key per credential [${dialect}]`, () => {
    const clock = manualClock(new Date('2026-05-01T10:00:00.000Z'));
    const {
      s,
      users: { owner },
    } = useServer(dialect, { clock, users: { owner: 'business' } });

    const post = (url: string, key: string, body: unknown, idem: string) => s.req('POST', url, { key, body, headers: { 'idempotency-key': idem } });
    const issue = async (body: Record<string, unknown>) => {
      const r = await s.req('POST', '/v1/api-keys', { key: owner.key, body: { name: 'helper', ...body } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.api_key as string;
    };
    const notReplayed = (r: Res) => assert.equal(r.headers.get('idempotent-replayed'), null);
    const refused = (r: Res, required: string) => {
      assert.equal(r.status, 403, JSON.stringify(r.body));
      assert.deepEqual([r.body.success, r.body.code, r.body.required_scope], [false, 'insufficient_scope', required]);
    };

    it("a keys:manage key replaying the owner's POST /v1/api-keys gets its own answer (403), not the full-access key", async () => {
      const body = { name: 'ci' };
      const first = await post('/v1/api-keys', owner.key, body, 'new-key-shared');
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(first.body.scopes, ['*']);
      const manager = await issue({ scopes: ['keys:manage'] });
      const other = await post('/v1/api-keys', manager, body, 'new-key-shared');
      refused(other, '*');
      notReplayed(other);
      assert.equal(JSON.stringify(other.body).includes(first.body.api_key), false);
      // The owner's own retry still replays its key.
      const again = await post('/v1/api-keys', owner.key, body, 'new-key-shared');
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(again.body.api_key, first.body.api_key);
      // Asking for what it may have, the manager's key gets a key of its own under the same Idempotency-Key.
      const own = await post('/v1/api-keys', manager, { name: 'ci', scopes: ['keys:manage'] }, 'new-key-shared');
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.notEqual(own.body.api_key, first.body.api_key);
      assert.deepEqual(own.body.scopes, ['keys:manage']);
      const ownAgain = await post('/v1/api-keys', manager, { name: 'ci', scopes: ['keys:manage'] }, 'new-key-shared');
      assert.equal(ownAgain.headers.get('idempotent-replayed'), 'true');
      assert.equal(ownAgain.body.api_key, own.body.api_key);
    });

    it("a webhooks:manage key replaying the owner's POST /v1/webhooks {events:[*]} gets 403, not the whsec_ secret", async () => {
      const body = { url: 'https://example.com/hook', events: ['*'] };
      const first = await post('/v1/webhooks', owner.key, body, 'hook-shared');
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.match(first.body.webhook.secret, /^whsec_/);
      const manager = await issue({ scopes: ['webhooks:manage'] });
      const other = await post('/v1/webhooks', manager, body, 'hook-shared');
      refused(other, 'sheets:read');
      notReplayed(other);
      assert.equal(JSON.stringify(other.body).includes('whsec_'), false);
      const again = await post('/v1/webhooks', owner.key, body, 'hook-shared');
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(again.body.webhook.secret, first.body.webhook.secret);
      const hooks = await s.c.db.selectFrom('webhooks').select('id').where('user_id', '=', owner.userId).execute();
      assert.equal(hooks.length, 1, 'the refused request created nothing');
    });

    it('two full-access keys of one account: each runs its own request; each replays only its own', async () => {
      const second = await issue({});
      const a = await post('/v1/sheets', owner.key, { title: 'Twice' }, 'sheet-shared');
      const b = await post('/v1/sheets', second, { title: 'Twice' }, 'sheet-shared');
      assert.equal(b.status, 200, JSON.stringify(b.body));
      notReplayed(b);
      assert.notEqual(b.body.id, a.body.id);
      assert.equal((await post('/v1/sheets', second, { title: 'Twice' }, 'sheet-shared')).body.id, b.body.id);
      assert.equal((await post('/v1/sheets', owner.key, { title: 'Twice' }, 'sheet-shared')).body.id, a.body.id);
    });

    it('MCP create tools: the same idempotency_key from another credential runs on its own', async () => {
      const second = await issue({ scopes: ['sheets:write', 'sheets:read'] });
      const [mine, theirs] = [await httpClient(s, owner.key), await httpClient(s, second)];
      try {
        const args = { title: 'Via MCP', idempotency_key: 'mcp-shared' };
        const a = ok(await mine.callTool({ name: 'create_sheet', arguments: args }));
        const b = await theirs.callTool({ name: 'create_sheet', arguments: args });
        assert.equal(b._meta, undefined);
        assert.notEqual(ok(b).id, a.id);
        const again = await mine.callTool({ name: 'create_sheet', arguments: args });
        assert.deepEqual(again._meta, { idempotent_replayed: true });
        assert.equal(ok(again).id, a.id);
      } finally {
        await Promise.all([mine.close(), theirs.close()]);
      }
    });

    it("an OAuth grant's keys hold across its refreshed access tokens, apart from the approving key's", async () => {
      const { client_id } = await register(s);
      const { verifier, challenge } = pkce();
      const page = await openConsent(
        String(authorizeUrl(s, { response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'sheets:read sheets:write' })),
      );
      const consent = await submitConsent(s, page, { key: owner.key });
      const code = consent.location!.searchParams.get('code')!;
      const first = await token(s, { grant_type: 'authorization_code', code, client_id, redirect_uri: REDIRECT, code_verifier: verifier });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const a = await post('/v1/sheets', first.body.access_token, { title: 'By app' }, 'app-key');
      assert.equal(a.status, 200, JSON.stringify(a.body));
      const renewed = await token(s, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id });
      const again = await post('/v1/sheets', renewed.body.access_token, { title: 'By app' }, 'app-key');
      assert.equal(again.headers.get('idempotent-replayed'), 'true', 'the same grant after a refresh');
      assert.equal(again.body.id, a.body.id);
      const approver = await post('/v1/sheets', owner.key, { title: 'By app' }, 'app-key');
      notReplayed(approver);
      assert.notEqual(approver.body.id, a.body.id);
    });

    it('an expired credential is refused before any replay', async () => {
      const expiring = await issue({ expires_at: new Date(clock.now().getTime() + 60_000).toISOString() });
      const first = await post('/v1/sheets', expiring, { title: 'Soon gone' }, 'expiring-key');
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal((await post('/v1/sheets', expiring, { title: 'Soon gone' }, 'expiring-key')).headers.get('idempotent-replayed'), 'true');
      clock.advance(61_000);
      assertError(await post('/v1/sheets', expiring, { title: 'Soon gone' }, 'expiring-key'), 401, 'unauthorized', /expired/);
    });
  });
}
