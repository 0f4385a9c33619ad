import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { verify } from '@octokit/webhooks-methods';
import { startContainerWorker } from '../../src/webhook-delivery/start.js';
import { dialects, expect200, type TestServer } from '../helpers.js';
import { fixtureCommits, readManifest, startUpgraded, type UpgradeManifest } from '../upgrade-fixtures.js';
import { startReceiver } from '../webhooks-helpers.js';

/**
 * Databases written by earlier versions (test/fixtures/upgrade/, scripts/make-upgrade-fixtures.mjs),
 * opened by today's code: every record the old version wrote must read back the same, its keys
 * authenticate, its webhook secrets still sign, its revisions and searches answer as they did.
 */
const commits = fixtureCommits();
assert.ok(commits.length >= 2, 'test/fixtures/upgrade/ holds the fixtures of at least two earlier versions');

for (const commit of commits) {
  for (const dialect of dialects()) {
    describe(`upgrade from ${commit} (${dialect})`, () => {
      it('keeps every record, key, revision, webhook secret and search', async () => {
        const m = readManifest(commit, dialect);
        const s = await startUpgraded(commit, dialect, m);
        try {
          const owner = m.api_keys.find((k) => k.name === 'owner')!.key;
          await checkKeys(s, m);
          await checkRecords(s, m, owner);
          await checkSearch(s, m, owner);
          await checkWebhooks(s, m, owner);
          await checkPersonalWorkspaces(s, m);
          await checkDataModel(s, m);
        } finally {
          await s.close();
        }
      });
    });
  }
}

/** Migration 027 gave every account that existed before it its personal workspace, owned by it. */
async function checkPersonalWorkspaces(s: TestServer, m: UpgradeManifest) {
  for (const k of m.api_keys.filter((key) => key.active && (!key.scopes || key.scopes.includes('*')))) {
    const { workspaces } = await expect200(s, k.key, 'GET', '/v1/workspaces');
    assert.equal(workspaces.length, 1, `key ${k.name}: one workspace`);
    assert.equal(workspaces[0].personal, true);
    assert.equal(workspaces[0].role, 'owner');
    assert.match(workspaces[0].id, /^wsp_[0-9a-z]{26}$/);
  }
}

/** Migration 042: every record of the account is in its personal workspace and names it as its maker. */
async function checkDataModel(s: TestServer, m: UpgradeManifest) {
  const personal = `wsp_${m.user_id.slice(4)}`;
  for (const table of ['sheets', 'sessions', 'handovers', 'knowledge', 'todos', 'webhooks'] as const) {
    const rows = await s.c.db.selectFrom(table).select(['workspace_id', 'user_id']).distinct().execute();
    assert.deepEqual(rows, [{ workspace_id: personal, user_id: m.user_id }], table);
  }
  const keys = await s.c.db.selectFrom('outbox').select('workspace_id').distinct().execute();
  assert.deepEqual(keys, [{ workspace_id: personal }], 'outbox');
}

async function checkKeys(s: TestServer, m: UpgradeManifest) {
  for (const k of m.api_keys) {
    const r = await s.req('GET', '/v1/sheets?limit=1', { key: k.key });
    assert.equal(r.status, k.active ? 200 : 401, `key ${k.name}: ${JSON.stringify(r.body)}`);
    if (k.active && k.scopes && !k.scopes.includes('*')) {
      const write = await s.req('POST', '/v1/sheets', { key: k.key, body: { title: 'not allowed' } });
      assert.equal(write.status, 403, `key ${k.name} keeps its scopes ${k.scopes}`);
    }
  }
}

async function checkRecords(s: TestServer, m: UpgradeManifest, key: string) {
  for (const want of m.sheets) {
    const { sheet } = await expect200(s, key, 'GET', `/v1/sheets/${want.id}`);
    assert.deepEqual(pick(sheet, ['title', 'content', 'folder', 'tags']), pick(want, ['title', 'content', 'folder', 'tags']), want.id);
    assert.equal(sheet.version, want.version ?? 1, `${want.id}: version`);
  }
  for (const [sheetId, revisions] of Object.entries(m.revisions)) {
    const list = await expect200(s, key, 'GET', `/v1/sheets/${sheetId}/revisions`);
    assert.deepEqual(list.revisions.map((r: { version: number }) => r.version).sort(), revisions.map((r) => r.version).sort(), sheetId);
    for (const want of revisions) {
      const { revision } = await expect200(s, key, 'GET', `/v1/sheets/${sheetId}/revisions/${want.version}`);
      assert.deepEqual(pick(revision, ['version', 'title', 'content', 'folder', 'tags']), pick(want, ['version', 'title', 'content', 'folder', 'tags']));
    }
  }
  for (const want of m.sessions) {
    const { session } = await expect200(s, key, 'GET', `/v1/sessions/${want.id}`);
    assert.deepEqual(pick(session, ['title', 'summary', 'project', 'tags', 'files_changed']), pick(want, ['title', 'summary', 'project', 'tags', 'files_changed']));
  }
  for (const h of m.handovers) {
    const { sheet } = await expect200(s, key, 'GET', `/v1/sheets/${h.handover_id}`);
    assert.equal(sheet.title, h.title);
    const link = await s.c.db.selectFrom('handovers').select('session_id').where('handover_id', '=', h.handover_id).executeTakeFirst();
    assert.equal(link?.session_id, h.session_id, 'the handover still names its session');
  }
  for (const k of m.knowledge) {
    const got = await expect200(s, key, 'GET', `/v1/knowledge/${k.id}`);
    const entry = got.solution ?? got.snippet;
    for (const field of ['title', 'content', 'error', 'description', 'language', 'tags']) {
      if (field in k.entry) assert.deepEqual(entry[field], k.entry[field], `${k.id}.${field}`);
    }
  }
  const { todos } = await expect200(s, key, 'GET', '/v1/todos');
  for (const want of m.todos) {
    const got = todos.find((t: { id: string }) => t.id === want.id);
    assert.ok(got, `todo ${want.id}`);
    assert.deepEqual(pick(got, ['content', 'status', 'project', 'priority', 'activeForm']), pick(want, ['content', 'status', 'project', 'priority', 'activeForm']));
  }
}

async function checkSearch(s: TestServer, m: UpgradeManifest, key: string) {
  const search = async (q: string) => (await expect200(s, key, 'GET', `/v1/sheets?q=${encodeURIComponent(q)}&limit=100`)).sheets.map((x: { id: string }) => x.id).sort();
  for (const [q, { expected }] of Object.entries(m.searches)) assert.deepEqual(await search(q), expected, `search ${q}`);
  for (const word of ['東京', '議事録', '東京都庁']) assert.ok(m.searches[word]!.expected.length > 0, `the fixture searches ${word}`);
  // Written after the upgrade, found beside the old ones.
  const { id } = await expect200(s, key, 'POST', '/v1/sheets', { title: '東京都庁の新しい議事録', content: { col1: '<p>kubernetes</p>' } });
  assert.deepEqual(await search('東京都庁'), [...m.searches['東京都庁']!.expected, id].sort());
  assert.deepEqual(await search('議事録'), [...m.searches['議事録']!.expected, id].sort());
}

async function checkWebhooks(s: TestServer, m: UpgradeManifest, key: string) {
  const hook = m.webhooks[0]!;
  const { webhooks } = await expect200(s, key, 'GET', '/v1/webhooks');
  assert.deepEqual(
    webhooks.map((w: { id: string; url: string; events: string[] }) => pick(w, ['id', 'url', 'events'])),
    [pick(hook, ['id', 'url', 'events'])],
  );
  const list = await expect200(s, key, 'GET', `/v1/webhooks/${hook.id}/deliveries?limit=100`);
  const queued = new Map(list.deliveries.map((d: { id: string; status: string; event: string }) => [d.id, d]));
  for (const d of m.deliveries) assert.equal((queued.get(d.id) as { status: string } | undefined)?.status, 'pending', `delivery ${d.id} still queued`);

  // The receiver stands where the unreachable host was: the queued deliveries and a test event arrive
  // signed with the secret the old version handed out.
  const receiver = await startReceiver();
  await s.c.db.updateTable('webhooks').set({ url: receiver.url }).where('id', '=', hook.id).execute();
  const worker = await startContainerWorker(s.c);
  try {
    await expect200(s, key, 'POST', `/v1/webhooks/${hook.id}/test`);
    const wanted = new Set([...m.deliveries.map((d) => d.id)]);
    const end = Date.now() + 30_000;
    while ([...wanted].some((id) => !receiver.received.some((r) => r.headers['x-service-delivery'] === id)) || !receiver.received.some(isTestEvent)) {
      assert.ok(Date.now() < end, `received ${receiver.received.length} deliveries, not every queued one and the test event`);
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const r of receiver.received) {
      assert.equal(await verify(hook.secret, r.raw.toString('utf8'), r.headers['x-service-signature'] as string), true, 'signed with the recorded secret');
    }
  } finally {
    await worker.stop();
    await receiver.close();
  }
}

const isTestEvent = (r: { body: any }) => typeof r.body?.event === 'string' && r.body.event.includes('test');

function pick(o: Record<string, any>, keys: string[]) {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}
