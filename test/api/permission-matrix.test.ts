import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { dialects, startServer, type Res, type TestServer } from '../helpers.js';
import { startReceiver, webhookEnv, type Receiver } from '../webhooks-helpers.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { httpClient } from '../mcp-helpers.js';
import { makeTeam } from '../teams-helpers.js';
import { ACTORS, EXPECTED, MCP_TOOLS, NOT_RECORD_ROUTES, NOT_RECORD_TOOLS, PLACES, REST_ROUTES, type Actor, type Expected, type Place, type RecordKind } from '../fixtures/permission-matrix.js';

/**
 * Issue 33's permission matrix on REST: every route of test/fixtures/permission-matrix.ts x every caller
 * x every record place, each cell on a fresh record (writes and deletes do not leak into the next cell).
 */
type User = { key: string; userId: string; personalWorkspace: string };
const personal = (u: User) => `wsp_${u.userId.slice(4)}`;
const rand = () => randomBytes(4).toString('hex');

/** The status line of a request whose body may never end (the event stream): read, then hung up on. */
function statusOnly(base: string, path: string, key: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} }, (res) => {
      resolve(res.statusCode ?? 0);
      res.destroy();
    });
    req.on('error', reject);
  });
}

function matches(res: { status: number; body?: any }, want: Expected, where: string) {
  if (want === 'ok') {
    assert.ok(res.status >= 200 && res.status < 300, `${where}: want 2xx, got ${res.status} ${JSON.stringify(res.body)}`);
    return;
  }
  assert.equal(res.status, want, `${where}: want ${want}, got ${res.status} ${JSON.stringify(res.body)}`);
  if (want === 403 && res.body) assert.equal(res.body.code, 'forbidden', `${where}: ${JSON.stringify(res.body)}`);
}

for (const dialect of dialects()) {
  describe(`permission matrix, REST [${dialect}]`, () => {
    let s: TestServer;
    let rcv: Receiver;
    let team: string;
    let other: string;
    const u = {} as Record<'owner' | 'admin' | 'editor' | 'viewer' | 'outsider' | 'foreign', User>;
    let otherKey: string;

    before(async () => {
      rcv = await startReceiver();
      s = await startServer(dialect, { env: webhookEnv({ RATE_LIMIT_DISABLED: '1', SHARED_READ_LIMIT: '100000' }), worker: true });
      for (const name of ['owner', 'admin', 'editor', 'viewer', 'outsider', 'foreign'] as const) u[name] = await s.user('pro');
      team = await makeTeam(s, u.owner, 'Team', [
        [u.admin, 'admin'],
        [u.editor, 'editor'],
        [u.viewer, 'viewer'],
      ]);
      other = await makeTeam(s, u.owner, 'Other team');
      const key = await s.req('POST', '/v1/api-keys', { key: u.owner.key, body: { name: 'other team only', workspace_id: other } });
      assert.equal(key.status, 200, JSON.stringify(key.body));
      assert.equal(key.body.workspace_id, other);
      otherKey = key.body.api_key;
    });
    after(async () => {
      await s?.close();
      await rcv?.close();
    });

    const keyOf = (a: Actor): string | undefined => (a === 'anon' ? undefined : a === 'otherKey' ? otherKey : u[a].key);
    /** Who owns the record of a place, and the workspace it goes in. */
    function placeOf(a: Actor, place: Place): { by: User; ws: string } {
      if (place === 'team') return { by: u.owner, ws: team };
      if (place === 'foreign') return { by: u.foreign, ws: personal(u.foreign) };
      const by = a === 'otherKey' || a === 'anon' ? u.owner : u[a];
      return { by, ws: personal(by) };
    }
    async function ok(by: User, method: string, path: string, body?: unknown): Promise<any> {
      const r = await s.req(method, path, { key: by.key, body });
      assert.ok(r.status >= 200 && r.status < 300, `setup ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    }

    /** A fresh record of `kind` made by the place's owner in its workspace; ids the routes need. */
    async function make(kind: RecordKind, by: User, ws: string): Promise<Record<string, string>> {
      const w = { workspace_id: ws };
      switch (kind) {
        case 'sheet':
          return { id: (await ok(by, 'POST', '/v1/sheets', { title: `m ${rand()}`, content: { col1: '<p>x</p>', col2: '<p>y</p>' }, ...w })).sheet.id };
        case 'session':
          return { id: (await ok(by, 'POST', '/v1/sessions', { title: 't', summary: 's', ...w })).session.id };
        case 'knowledge':
          return { id: (await ok(by, 'POST', '/v1/knowledge?type=solutions', { title: 't', content: 'c', error: 'E', ...w })).id };
        case 'spark':
          return { id: (await ok(by, 'POST', '/v1/spark?action=create', { name: `s${rand()}`, prompt: 'Say {{content}}', ...w })).id };
        case 'todo': {
          const content = `t ${rand()}`;
          const out = await ok(by, 'POST', '/v1/todos', { todos: [{ content, status: 'pending' }], ...w });
          return { id: out.todos.find((t: any) => t.content === content).id };
        }
        case 'webhook':
          return { id: (await ok(by, 'POST', '/v1/webhooks', { url: `${rcv.url}/m`, events: ['*'], ...w })).webhook.id };
        case 'workspace':
          return {};
      }
    }

    /** A workspace holds at most 25 webhooks: each cell's goes once it is used. */
    async function dropWebhook(by: User, id: string | undefined, kind: RecordKind) {
      if (kind === 'webhook' && id) await s.req('DELETE', `/v1/webhooks/${id}`, { key: by.key });
    }

    /** Steps a route needs before it can succeed (a trashed sheet to restore, a share to revoke, ...). */
    async function prepare(route: string, by: User, ws: string, ids: Record<string, string>) {
      const sheet = `/v1/sheets/${ids.id}`;
      if (route === 'POST /sheets/{id}/restore') await ok(by, 'DELETE', sheet);
      if (route.includes('{version}')) await ok(by, 'PUT', sheet, { title: 'second' });
      if (route === 'DELETE /sheets/{id}/shares/{share_id}') ids.share_id = (await ok(by, 'POST', `${sheet}/shares`, {})).share.id;
      if (route === 'DELETE /sheets/{id}/exports/{export_id}') ids.export_id = (await ok(by, 'POST', `${sheet}/export`, { format: 'txt' })).export_id;
      if (route === 'POST /webhooks/{id}/deliveries/{delivery_id}/redeliver') {
        await ok(by, 'POST', '/v1/todos', { todos: [{ content: `wake ${rand()}`, status: 'pending' }], workspace_id: ws });
        // Redelivering needs a delivery that is not being sent at that moment: wait until it is done.
        for (let i = 0; i < 400 && !ids.delivery_id; i++) {
          const done = (await ok(by, 'GET', `/v1/webhooks/${ids.id}/deliveries`)).deliveries.find((d: any) => d.status !== 'pending');
          if (done) ids.delivery_id = done.id;
          else await new Promise((r) => setTimeout(r, 25));
        }
        assert.ok(ids.delivery_id, 'a delivery to redeliver');
      }
    }

    /** Query parameters a create route needs beside its body. */
    const QUERY: Record<string, string> = { 'POST /knowledge': '?type=solutions', 'POST /spark': '?action=create', 'POST /stats': '?action=worktime' };

    /** The request of a route for a record (by-id routes) or a workspace (lists and creates). */
    function call(route: string, ids: Record<string, string>, ws: string): [string, string, unknown?] {
      const [method, template] = route.split(' ');
      const path = `/v1${template
        .replace('{id}', ids.id)
        .replace('{version}', '1')
        .replace('{col}', 'col2')
        .replace('{share_id}', ids.share_id)
        .replace('{export_id}', ids.export_id)
        .replace('{delivery_id}', ids.delivery_id)
        .replace('{external_id}', `x-${rand()}`)}`;
      const w = { workspace_id: ws };
      const bodies: Record<string, unknown> = {
        'POST /sheets': { title: 'n', content: { col1: '<p>n</p>' }, ...w },
        'PUT /sheets/{id}': { title: 'changed' },
        'POST /sheets/{id}/append': { html: '<p>more</p>' },
        'POST /sheets/{id}/replace': { find: 'x', replace: 'z' },
        'POST /sheets/{id}/columns': {},
        'POST /sheets/{id}/shares': {},
        'POST /sheets/{id}/export': { format: 'txt' },
        'POST /sessions': { title: 't', summary: 's', ...w },
        'PATCH /sessions/{id}': { title: 'changed' },
        'PUT /sessions/external/{external_id}': { title: 't', summary: 's', ...w },
        'POST /sessions/handover': { session_id: ids.id, next_steps: ['go on'] },
        'POST /knowledge': { title: 't', content: 'c', error: 'E', ...w },
        'PUT /knowledge/{id}': { title: 'changed' },
        'POST /spark': { name: `s${rand()}`, prompt: 'Say {{content}}', ...w },
        'PUT /spark/{id}': { name: `r${rand()}` },
        'POST /todos': { todos: [{ content: `c ${rand()}`, status: 'pending' }], ...w },
        'POST /webhooks': { url: `${rcv.url}/n`, events: ['*'], ...w },
        'POST /stats': { hours: 1, ...w },
      };
      const listQuery =
        method === 'GET' && REST_ROUTES[route].kind === 'workspace' ? `?workspace_id=${ws}${route.startsWith('GET /briefing') ? '&project=p' : route === 'GET /search' ? '&q=x' : ''}` : (QUERY[route] ?? '');
      return [method, path + listQuery, bodies[route] ?? (method === 'GET' || method === 'DELETE' ? undefined : {})];
    }

    it('names every /v1 route of the OpenAPI document (in the matrix or outside it, with a reason)', async () => {
      const doc = (await s.req('GET', '/v1/openapi.json')).body;
      const routes = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
      const named = new Set([...Object.keys(REST_ROUTES), ...NOT_RECORD_ROUTES]);
      assert.deepEqual(
        routes.filter((r) => !named.has(r)),
        [],
        'routes missing from test/fixtures/permission-matrix.ts',
      );
      assert.deepEqual(
        Object.keys(REST_ROUTES).filter((r) => !routes.includes(r)),
        [],
        'matrix routes the API does not have',
      );
    });

    for (const [route, { access, kind }] of Object.entries(REST_ROUTES)) {
      it(`${route} (${access})`, async () => {
        for (const actor of ACTORS) {
          for (const place of PLACES) {
            const { by, ws } = placeOf(actor, place);
            const ids = await make(kind, by, ws);
            await prepare(route, by, ws, ids);
            const [method, path, body] = call(route, ids, ws);
            const where = `${route} as ${actor} on the ${place} record`;
            const want = EXPECTED[access][actor][place];
            if (route === 'GET /events/stream') {
              matches({ status: await statusOnly(s.url, path, keyOf(actor)) }, want, where);
              continue;
            }
            const res: Res = await s.req(method, path, { key: keyOf(actor), body });
            matches(res, want, where);
            await dropWebhook(by, ids.id, kind);
            if (route === 'POST /webhooks' && res.body?.webhook) await dropWebhook(by, res.body.webhook.id, 'webhook');
          }
        }
        if (kind !== 'workspace') {
          // An id that exists nowhere: 404 for a member, as for an account of its own.
          const ids = { id: `zz_${rand()}`, share_id: 'shr_zz', export_id: 'exp_zz', delivery_id: 'dlv_zz' };
          const [method, path, body] = call(route, ids, team);
          const res = await s.req(method, path, { key: u.editor.key, body });
          assert.equal(res.status, 404, `${route} unknown id: ${res.status} ${JSON.stringify(res.body)}`);
        }
      });
    }

    /** The REST route whose preparation a tool needs (the same records, the same steps). */
    const TOOL_PREP: Record<string, string> = {
      restore_sheet: 'POST /sheets/{id}/restore',
      get_sheet_revision: 'GET /sheets/{id}/revisions/{version}',
      restore_sheet_revision: 'POST /sheets/{id}/revisions/{version}/restore',
      revoke_sheet_share: 'DELETE /sheets/{id}/shares/{share_id}',
      revoke_sheet_export: 'DELETE /sheets/{id}/exports/{export_id}',
      redeliver_webhook_delivery: 'POST /webhooks/{id}/deliveries/{delivery_id}/redeliver',
    };
    function toolArgs(tool: string, ids: Record<string, string>, ws: string): Record<string, unknown> {
      const { id } = ids;
      const w = { workspace_id: ws };
      const args: Record<string, Record<string, unknown>> = {
        list_sheets: w,
        search_sheets: { q: 'x', ...w },
        create_sheet: { title: 'n', content: { col1: '<p>n</p>' }, ...w },
        get_sheet: { id },
        get_sheet_content: { id, format: 'html' },
        update_sheet: { id, tags: ['m'] },
        trash_sheet: { id },
        restore_sheet: { id },
        export_sheet: { id, format: 'txt' },
        list_sheet_exports: { id },
        revoke_sheet_export: { id, export_id: ids.export_id },
        append_to_sheet: { id, html: '<p>more</p>' },
        replace_in_sheet: { id, find: 'x', replace: 'z' },
        add_column: { id },
        remove_column: { id, col: 'col2' },
        list_sheet_revisions: { id },
        get_sheet_revision: { id, version: 1 },
        restore_sheet_revision: { id, version: 1 },
        share_sheet: { sheet_id: id },
        list_sheet_shares: { sheet_id: id },
        revoke_sheet_share: { sheet_id: id, share_id: ids.share_id },
        save_session: { title: 't', summary: 's', ...w },
        list_sessions: w,
        get_session: { id },
        update_session: { id, tags: ['m'] },
        create_handover: { session_id: id, next_steps: ['go on'] },
        get_latest_handover: { project: 'p', ...w },
        get_briefing: { project: 'p', ...w },
        search: { q: 'x', ...w },
        search_knowledge: { q: 't', ...w },
        save_knowledge: { type: 'snippets', title: 't', content: 'c', ...w },
        get_knowledge: { id },
        update_knowledge: { id, language: 'ts' },
        delete_knowledge: { id },
        list_todos: w,
        sync_todos: { todos: [{ content: `c ${rand()}`, status: 'pending' }], ...w },
        delete_todo: { id },
        log_work_time: { hours: 1, ...w },
        get_stats: w,
        list_sparks: w,
        create_spark: { name: `s${rand()}`, prompt: 'Say {{content}}', ...w },
        get_spark: { id },
        update_spark: { id, name: `r${rand()}` },
        delete_spark: { id },
        list_webhooks: w,
        register_webhook: { url: `${rcv.url}/n`, events: ['*'], ...w },
        delete_webhook: { id },
        enable_webhook: { id },
        test_webhook: { id },
        list_webhook_deliveries: { id },
        redeliver_webhook_delivery: { id, delivery_id: ids.delivery_id },
      };
      return args[tool];
    }
    /** A tool's answer as a status: 200 for a result, else the status its error names. */
    function toolStatus(r: unknown): { status: number; body: any } {
      const res = r as CallToolResult;
      const text = (res.content?.[0] as { text?: string } | undefined)?.text ?? '{}';
      if (!res.isError) return { status: 200, body: undefined };
      const body = JSON.parse(text);
      return { status: body.status ?? 500, body };
    }

    it('names every MCP tool (in the matrix or outside it, with a reason)', async () => {
      const client = await httpClient(s, u.owner.key);
      try {
        const listed = (await client.listTools()).tools;
        const tools = listed.map((t) => t.name);
        const named = new Set([...Object.keys(MCP_TOOLS), ...NOT_RECORD_TOOLS]);
        assert.deepEqual(
          tools.filter((t) => !named.has(t)),
          [],
          'tools missing from test/fixtures/permission-matrix.ts',
        );
        assert.deepEqual(
          Object.keys(MCP_TOOLS).filter((t) => !tools.includes(t)),
          [],
          'matrix tools MCP does not list',
        );
        // Issue 33.8: every tool takes an optional workspace_id (by id it names the workspace the record must be in).
        const without = listed.filter((t) => t.name !== 'list_workspaces' && !(t.inputSchema.properties && 'workspace_id' in t.inputSchema.properties));
        assert.deepEqual(
          without.map((t) => t.name),
          [],
          'tools without workspace_id in their input schema',
        );
        assert.ok(
          listed.every((t) => !t.inputSchema.required?.includes('workspace_id')),
          'workspace_id is optional everywhere',
        );
      } finally {
        await client.close();
      }
      assert.equal((await s.req('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })).status, 401, 'no key, no MCP');
    });

    describe('MCP tools', () => {
      const clients = {} as Record<Actor, Client>;
      before(async () => {
        for (const actor of ACTORS) if (actor !== 'anon') clients[actor] = await httpClient(s, keyOf(actor)!);
      });
      after(async () => {
        for (const c of Object.values(clients)) await c.close();
      });
      for (const [tool, { access, kind }] of Object.entries(MCP_TOOLS)) {
        it(`${tool} (${access})`, async () => {
          for (const actor of ACTORS) {
            if (actor === 'anon') continue;
            for (const place of PLACES) {
              const { by, ws } = placeOf(actor, place);
              const ids = await make(kind, by, ws);
              if (TOOL_PREP[tool]) await prepare(TOOL_PREP[tool], by, ws, ids);
              if (tool === 'get_latest_handover') {
                const session = (await ok(by, 'POST', '/v1/sessions', { title: 't', summary: 's', project: 'p', workspace_id: ws })).session.id;
                await ok(by, 'POST', '/v1/sessions/handover', { session_id: session, next_steps: ['a'] });
              }
              const result = await clients[actor].callTool({ name: tool, arguments: toolArgs(tool, ids, ws) });
              matches(toolStatus(result), EXPECTED[access][actor][place], `${tool} as ${actor} on the ${place} record`);
              await dropWebhook(by, ids.id, kind);
              if (tool === 'register_webhook' && !result.isError) await dropWebhook(by, (result.structuredContent as any)?.webhook?.id ?? JSON.parse((result.content as any)[0].text).webhook?.id, 'webhook');
            }
          }
        });
      }
    });

    it('a share link opens its sheet with no key, from any workspace, until it is revoked', async () => {
      for (const place of PLACES) {
        const { by, ws } = placeOf('owner', place);
        const { id } = await make('sheet', by, ws);
        const share = (await ok(by, 'POST', `/v1/sheets/${id}/shares`, {})).share;
        matches(await s.req('GET', `/v1/shared/${share.token}`), 'ok', `shared ${place} sheet`);
        await ok(by, 'DELETE', `/v1/sheets/${id}/shares/${share.id}`);
        assert.equal((await s.req('GET', `/v1/shared/${share.token}`)).status, 404, `revoked ${place} share`);
      }
    });
  });
}
