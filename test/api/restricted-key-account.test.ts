import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialects, startServer, type Res, type TestServer } from '../helpers.js';
import { makeTeam } from '../teams-helpers.js';

/**
 * Security round 3, finding 1: a credential restricted to one workspace reaches nothing of the account
 * outside it, on the routes that take the caller's account rather than a record too. The matrix: every
 * account-level route x each kind of restricted credential (a key made with workspace_id, a console
 * session opened with such a key, a key whose workspace was deleted since) -> what it may answer.
 */
type Caller = { name: string; req(method: string, path: string, body?: unknown): Promise<Res> };

const PERSONAL_MARK = 'personal-only-text';

for (const dialect of dialects()) {
  describe(`restricted credentials on account-level routes [${dialect}]`, () => {
    let s: TestServer;
    let owner: { key: string; userId: string; personalWorkspace: string };
    let team: string;
    let personal: string;
    const callers: Caller[] = [];
    let deletedKeyCaller: Caller;
    let unrestrictedKeyId: string;

    before(async () => {
      s = await startServer(dialect, { env: { RATE_LIMIT_DISABLED: '1' } });
      owner = await s.user('pro');
      personal = `wsp_${owner.userId.slice(4)}`;
      team = await makeTeam(s, owner, 'Team');
      const gone = await makeTeam(s, owner, 'Gone soon');
      // Personal records the restricted credentials must never see.
      await s.req('POST', '/v1/sheets', { key: owner.key, body: { title: PERSONAL_MARK, content: { col1: `<p>${PERSONAL_MARK}</p>` } } });
      await s.req('POST', '/v1/stats', { key: owner.key, body: { project: PERSONAL_MARK, hours: 2, date: '2026-12-01' } });
      unrestrictedKeyId = (await s.req('GET', '/v1/api-keys', { key: owner.key })).body.api_keys[0].id;

      const keyFor = async (workspace_id: string) => {
        const r = await s.req('POST', '/v1/api-keys', { key: owner.key, body: { name: `only ${workspace_id}`, workspace_id } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return r.body.api_key as string;
      };
      const teamKey = await keyFor(team);
      callers.push({ name: 'restricted key', req: (m, p, body) => s.req(m, p, { key: teamKey, body }) });

      const session = await s.req('POST', '/console/session', { body: { api_key: teamKey }, headers: { 'x-console': '1' } });
      assert.equal(session.status, 200, JSON.stringify(session.body));
      const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
      callers.push({ name: 'console session of a restricted key', req: (m, p, body) => s.req(m, p, { body, headers: { cookie, 'x-console': '1' } }) });

      const goneKey = await keyFor(gone);
      assert.equal((await s.req('DELETE', `/v1/workspaces/${gone}`, { key: owner.key, body: { confirm: 'Gone soon' } })).status, 200);
      deletedKeyCaller = { name: 'key of a deleted workspace', req: (m, p, body) => s.req(m, p, { key: goneKey, body }) };
      callers.push(deletedKeyCaller);
    });
    after(async () => {
      await s?.close();
    });

    it('GET /account/export: 403 for every restricted credential (it holds the whole personal account)', async () => {
      for (const c of callers) {
        const r = await c.req('GET', '/v1/account/export');
        assert.equal(r.status, 403, `${c.name}: ${r.status} ${typeof r.body === 'string' ? r.body.slice(0, 80) : JSON.stringify(r.body)}`);
        assert.equal(r.body.code, 'forbidden', c.name);
        assert.match(r.body.error, /restricted to workspace/, c.name);
      }
      // The unrestricted key still exports.
      const full = await fetch(`${s.url}/v1/account/export`, { headers: { authorization: `Bearer ${owner.key}` } });
      assert.equal(full.status, 200);
      assert.equal(full.headers.get('content-type'), 'application/zip');
      await full.arrayBuffer();
    });

    it('stats and the briefing answer within the workspace, or refuse the personal one', async () => {
      for (const c of callers) {
        const deleted = c === deletedKeyCaller;
        const stats = await c.req('GET', '/v1/stats');
        if (deleted) assert.equal(stats.status, 404, `${c.name}: ${JSON.stringify(stats.body)}`);
        else {
          assert.equal(stats.status, 200, `${c.name}: ${JSON.stringify(stats.body)}`);
          assert.equal(stats.body.stats.workspace_id, team, c.name);
          assert.doesNotMatch(JSON.stringify(stats.body), new RegExp(PERSONAL_MARK), c.name);
        }
        for (const path of [`/v1/stats?workspace_id=${personal}`, `/v1/briefing?project=${PERSONAL_MARK}&workspace_id=${personal}`, `/v1/sheets?workspace_id=${personal}`]) {
          const r = await c.req('GET', path);
          assert.equal(r.status, 403, `${c.name} ${path}: ${JSON.stringify(r.body)}`);
        }
        const logged = await c.req('POST', `/v1/stats?workspace_id=${personal}`, { project: 'x', hours: 1, date: '2026-12-02' });
        assert.ok(logged.status === 403 || logged.status === 400, `${c.name}: ${logged.status} ${JSON.stringify(logged.body)}`);
        const briefing = await c.req('GET', `/v1/briefing?project=${PERSONAL_MARK}`);
        if (!deleted) assert.doesNotMatch(JSON.stringify(briefing.body), new RegExp(`${PERSONAL_MARK}</p>`), c.name);
      }
    });

    it('keys and connected apps: only those restricted to the same workspace; no key for the personal one', async () => {
      for (const c of callers) {
        const keys = await c.req('GET', '/v1/api-keys');
        assert.equal(keys.status, 200, `${c.name}: ${JSON.stringify(keys.body)}`);
        assert.ok(keys.body.api_keys.length >= 1, c.name);
        for (const k of keys.body.api_keys) assert.notEqual(k.workspace_id, null, `${c.name} sees an unrestricted key ${k.id}`);
        assert.equal((await c.req('DELETE', `/v1/api-keys/${unrestrictedKeyId}`)).status, 403, c.name);
        const made = await c.req('POST', '/v1/api-keys', { name: 'escape', workspace_id: personal });
        assert.equal(made.status, 403, `${c.name}: ${JSON.stringify(made.body)}`);
        const apps = await c.req('GET', '/v1/connected-apps');
        assert.equal(apps.status, 200, `${c.name}: ${JSON.stringify(apps.body)}`);
      }
    });

    it('workspaces: only its own listed; none made; no invitation accepted', async () => {
      for (const c of callers) {
        const list = await c.req('GET', '/v1/workspaces');
        assert.equal(list.status, 200, `${c.name}: ${JSON.stringify(list.body)}`);
        assert.ok(
          list.body.workspaces.every((w: { id: string }) => w.id !== personal),
          `${c.name} lists the personal workspace`,
        );
        assert.equal((await c.req('POST', '/v1/workspaces', { name: 'more' })).status, 403, c.name);
      }
    });
  });
}
