import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { strFromU8, unzipSync, zipSync, strToU8 } from 'fflate';
import { dialects, type TestServer } from '../helpers.js';
import { useServer } from '../server-fixture.js';
import { dbEnv } from '../mcp-helpers.js';

// Issue 35.6: a person's records leave with them (a zip of JSON and Markdown) and come back whole on any instance.
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

async function importZip(s: TestServer, bytes: Uint8Array, args: string[] = []) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-import-')), 'export.zip');
  fs.writeFileSync(file, bytes);
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'users', 'import', file, '--name', 'copy', '--json', ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'silent', BOOTSTRAP_OWNER: '0', ...dbEnv(s) },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function download(s: TestServer, key: string): Promise<Uint8Array> {
  const res = await fetch(`${s.url}/v1/account/export`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(res.headers.get('content-type'), 'application/zip');
  assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="sheet-workspace-usr_/);
  return new Uint8Array(await res.arrayBuffer());
}

for (const dialect of dialects()) {
  describe(`account export and import [${dialect}]`, () => {
    let key: string;
    let zip: Uint8Array;
    const ids: Record<string, string> = {};
    const { s } = useServer(dialect);
    before(async () => {
      ({ key } = await s.user('business'));
      const post = async (p: string, body: object) => {
        const r = await s.req('POST', p, { key, body });
        assert.equal(r.status, 200, `${p} ${JSON.stringify(r.body)}`);
        return r.body;
      };
      ids.plan = (await post('/v1/sheets', { title: 'Release plan', content: { col1: '<p>Draft</p>' }, folder: 'Work', tags: ['release'] })).id;
      await s.req('PUT', `/v1/sheets/${ids.plan}`, { key, body: { content: { col1: '<p>Final</p>', col2: '<ul><li>移行</li></ul>' } } });
      await s.req('PUT', `/v1/sheets/${ids.plan}`, { key, body: { title: 'Release plan v2', content: { col2: null, col3: '<h2>Notes</h2>' } } });
      ids.ja = (await post('/v1/sheets', { title: '議事録 東京', content: { col1: '<p>東京都庁で会議</p>' } })).id;
      ids.old = (await post('/v1/sheets', { title: 'Old idea', content: { col1: '<p>gone</p>' } })).id;
      await s.req('DELETE', `/v1/sheets/${ids.old}`, { key });
      const session = await s.req('PUT', '/v1/sessions/external/cc:abc', {
        key,
        body: { title: 'Auth refactor', summary: 'Cookies now.', project: 'rocket', tags: ['claude-code'], files_changed: ['src/a.ts'] },
      });
      ids.session = session.body.id;
      ids.handover = (await post('/v1/sessions/handover', { session_id: ids.session, next_steps: ['Rotate keys'], notes: 'Green.' })).handover_id;
      await post('/v1/knowledge?type=solutions', { title: 'SQLite busy', error: 'database is locked', content: 'Use WAL.', tags: ['db'] });
      await post('/v1/knowledge?type=snippets', { title: 'Fence', content: 'echo ```', language: 'sh', description: 'backticks' });
      await post('/v1/todos', {
        project: 'rocket',
        todos: [
          { content: 'Rotate keys', status: 'pending', priority: 'high' },
          { content: 'Docs', status: 'completed' },
        ],
      });
      await post('/v1/todos', { todos: [{ content: 'No project task', status: 'in_progress', activeForm: 'Doing it' }] });
      await post('/v1/stats?action=worktime', { hours: 2.5, project: 'rocket', description: 'pairing | review', date: '2026-11-20' });
      await post('/v1/spark?action=create', { name: 'Shout', prompt: 'Uppercase: {{content}}' });
      await post('/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['sheet.created'], name: 'ci' });
      const off = await post('/v1/webhooks', { url: 'https://hooks.example.com/off', events: ['*'] });
      const owner = (await s.c.db.selectFrom('webhooks').select('user_id').where('id', '=', off.webhook.id).executeTakeFirstOrThrow()).user_id;
      await s.c.webhooks.disable({ userId: owner }, off.webhook.id, 'failing');
      zip = await download(s, key);
    });

    it('holds every record as JSON and as Markdown with front matter', () => {
      const files = unzipSync(zip);
      const manifest = JSON.parse(strFromU8(files['manifest.json']!));
      assert.equal(manifest.format, 'sheet-workspace-account-export');
      assert.deepEqual(manifest.counts, { sheets: 4, revisions: 3, sessions: 1, handovers: 1, solutions: 1, snippets: 1, todos: 3, work_logs: 1, sparks: 1, webhooks: 2 });
      const lines = strFromU8(files['records/sheets.jsonl']!)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.deepEqual(
        lines.find((l) => l.sheet.id === ids.plan).revisions.map((r: { version: number }) => r.version),
        [1, 2],
      );
      assert.ok(!strFromU8(files['records/webhooks.json']!).includes('whsec_'), 'webhook secrets never leave');
      const md = Object.keys(files).filter((n) => n.startsWith('markdown/'));
      const plan = md.find((n) => n.startsWith('markdown/sheets/Release-plan-v2-'))!;
      assert.match(strFromU8(files[plan]!), /^---\ntitle: "Release plan v2"\nfolder: "Work"\ntags: \["release"\]/);
      assert.ok(md.some((n) => n.startsWith('markdown/sheets/trash/Old-idea-')));
      assert.ok(md.some((n) => n.startsWith('markdown/sessions/Auth-refactor-')));
      assert.match(strFromU8(files[md.find((n) => n.startsWith('markdown/knowledge/snippets/'))!]!), /````sh\necho ```\n````/);
      assert.match(strFromU8(files[md.find((n) => n.startsWith('markdown/todos/rocket-'))!]!), /- \[ \] Rotate keys — high\n- \[x\] Docs/);
    });

    it('imports into a new account with every title, column, summary, solution and todo equal', async () => {
      const free = await importZip(s, zip);
      assert.equal(free.code, 2, "the plan is free unless --plan says otherwise (never the manifest's), and free holds no webhooks");
      assert.match(free.stderr, /the export holds 2 webhook\(s\), which the free plan cannot have; import with --plan pro or business/);
      const r = await importZip(s, zip, ['--plan', 'business']);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.deepEqual(Object.keys(out).sort(), ['api_key', 'user_id', 'webhooks']);
      assert.match(out.webhooks[0].secret, /^whsec_/);
      const k2 = out.api_key;
      const list = async (k: string, p: string) => (await s.req('GET', p, { key: k })).body;
      const sheetsOf = async (k: string) => {
        const live = (await list(k, '/v1/sheets?limit=100')).sheets;
        const trash = (await list(k, '/v1/sheets?limit=100&trashed=true')).sheets;
        return [...live, ...trash]
          .map((x: any) => ({ title: x.title, content: x.content, folder: x.folder, tags: x.tags, trashed: !!x.trashedAt, version: x.version }))
          .sort((a, b) => a.title.localeCompare(b.title));
      };
      assert.deepEqual(await sheetsOf(k2), await sheetsOf(key));
      const planCopy = (await list(k2, `/v1/sheets?q=${encodeURIComponent('Release plan')}`)).sheets[0];
      const revs = await list(k2, `/v1/sheets/${planCopy.id}/revisions`);
      assert.equal(revs.total, 2);
      const strip = (xs: any[], fields: string[]) => xs.map((x) => Object.fromEntries(fields.map((f) => [f, x[f]])));
      const sessionFields = ['title', 'summary', 'project', 'tags', 'files_changed', 'external_id'];
      assert.deepEqual(strip((await list(k2, '/v1/sessions')).sessions, sessionFields), strip((await list(key, '/v1/sessions')).sessions, sessionFields));
      const kFields = ['title', 'error', 'content', 'language', 'description', 'tags'];
      const know = async (k: string) => {
        const b = await list(k, '/v1/knowledge');
        return [strip(b.solutions, kFields), strip(b.snippets, kFields)];
      };
      assert.deepEqual(await know(k2), await know(key));
      const todoFields = ['content', 'status', 'project', 'priority', 'activeForm'];
      const todosOf = async (k: string) => strip((await list(k, '/v1/todos')).todos, todoFields).sort((a: any, b: any) => a.content.localeCompare(b.content));
      assert.deepEqual(await todosOf(k2), await todosOf(key));
      const latest = await list(k2, '/v1/briefing?project=rocket');
      assert.match(latest.text, /Rotate keys/);
      assert.equal(latest.handover?.title, 'Handover: Auth refactor');
      const stats = (await list(k2, '/v1/stats')).stats;
      assert.equal(stats.worktime.total_hours, 2.5);
      const hooks = (await list(k2, '/v1/webhooks')).webhooks;
      assert.deepEqual(hooks.map((h: any) => [h.url, h.events, h.name, h.status]).sort(), [
        ['https://hooks.example.com/off', ['*'], null, 'disabled'],
        ['https://hooks.example.com/x', ['sheet.created'], 'ci', 'enabled'],
      ]);
    });

    it('refuses a file that is not an export and creates no account', async () => {
      const users = async () => (await s.c.db.selectFrom('users').select('id').execute()).length;
      const before = await users();
      const notZip = await importZip(s, strToU8('hello'));
      assert.equal(notZip.code, 2);
      assert.match(notZip.stderr, /not a zip file/);
      const foreign = await importZip(s, zipSync({ 'manifest.json': strToU8('{"format":"something-else"}') }));
      assert.equal(foreign.code, 2);
      assert.match(foreign.stderr, /manifest\.json/);
      const files = unzipSync(zip);
      files['records/todos.json'] = strToU8('[{"content":"","status":"pending","project":""}]');
      const badRecord = await importZip(s, zipSync(files));
      assert.equal(badRecord.code, 2);
      assert.match(badRecord.stderr, /records\/todos\.json: 0\.content content must not be empty/);
      assert.equal(await users(), before);
    });

    it('needs a full-access credential', async () => {
      const scoped = await s.req('POST', '/v1/api-keys', { key, body: { name: 'ro', scopes: ['sheets:read'] } });
      const res = await s.req('GET', '/v1/account/export', { key: scoped.body.api_key });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'insufficient_scope');
      assert.equal(res.body.required_scope, '*');
    });
  });
}
