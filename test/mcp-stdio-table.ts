import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestServer } from './helpers.js';
import type { TestUser } from './server-fixture.js';
import { ok, without } from './mcp-helpers.js';
import type { FakeAi } from './sparks-fakes.js';
import type { Receiver } from './webhooks-helpers.js';

export type Args = Record<string, unknown>;
export type RestCall = [method: string, path: string, body?: unknown];

/**
 * One row per tool: a call that succeeds and a call that fails. The failure is compared with the same
 * request on REST (`rest`), or with `expect` for a tool that has no REST twin. Tools that take no
 * arguments cannot be called wrongly; their error (`afterKeyDisabled`) is the 401 after the key is disabled.
 */
export interface Row {
  ok: () => Args;
  check?: (out: any) => unknown;
  err?: () => Args;
  rest?: () => RestCall;
  expect?: [status: number, code: string];
  afterKeyDisabled?: () => RestCall;
}

export const UNKNOWN_SHEET = 'sht_01jzzzzzzzzzzzzzzzzzzzzzzz';

/** What the rows use: the server and its records (`f`, made before the table runs), and `ctx`, values one row leaves for a later one. */
export interface TableContext {
  s: TestServer;
  alice: TestUser;
  client: Client;
  ai: FakeAi;
  rcv: Receiver;
  f: Record<string, string>;
  ctx: Record<string, string>;
  rest: (method: string, path: string, body?: unknown) => Promise<any>;
}

/** The table of test/api/mcp-stdio-tools.test.ts: every tool MCP lists, in the order they are checked. */
export function toolTable({ s, alice, client, ai, rcv, f, ctx, rest }: TableContext): Record<string, Row> {
  return {
    list_sheets: {
      ok: () => ({ limit: 5 }),
      check: async (out) => assert.deepEqual(without(out, 'has_more', 'next'), await rest('GET', `/v1/sheets?limit=5&fields=${Object.keys(out.sheets[0]).filter((k) => k !== 'id')}`)),
      err: () => ({ limit: 1.5 }),
      rest: () => ['GET', '/v1/sheets?limit=1.5'],
    },
    search_sheets: {
      ok: () => ({ q: 'FIXTURE text' }),
      check: (out) =>
        assert.deepEqual(
          out.sheets.map((x: any) => x.id),
          [f.sheet],
        ),
      err: () => ({ q: 'q'.repeat(201) }),
      rest: () => ['GET', `/v1/sheets?q=${'q'.repeat(201)}`],
    },
    get_sheet: {
      ok: () => ({ id: f.sheet }),
      check: async (out) => assert.deepEqual(out, await rest('GET', `/v1/sheets/${f.sheet}`)),
      err: () => ({ id: f.bobSheet }),
      rest: () => ['GET', `/v1/sheets/${f.bobSheet}`],
    },
    get_sheet_content: {
      ok: () => ({ id: f.sheet, format: 'html' }),
      check: async (out) => {
        const whole = (await rest('GET', `/v1/sheets/${f.sheet}`)).sheet.content;
        const column = Object.keys(whole).sort()[0];
        assert.deepEqual([out.column, out.content, out.window.next_offset], [column, whole[column], null]);
      },
      err: () => ({ id: f.bobSheet }),
      rest: () => ['GET', `/v1/sheets/${f.bobSheet}`],
    },
    create_sheet: {
      ok: () => ({ title: 'over stdio', content: { col1: '<p>s</p>' } }),
      check: async (out) => {
        assert.deepEqual((await rest('GET', `/v1/sheets/${out.id}`)).sheet, out.sheet);
        assert.equal((await s.events('sheet.created')).filter((e) => e.data.sheet_id === out.id && e.workspace_id === alice.personalWorkspace).length, 1);
      },
      err: () => ({ title: ' ' }),
      rest: () => ['POST', '/v1/sheets', { title: ' ' }],
    },
    update_sheet: {
      ok: () => ({ id: f.sheet, tags: ['stdio'] }),
      check: async (out) => assert.deepEqual((await rest('GET', `/v1/sheets/${f.sheet}`)).sheet, out.sheet),
      err: () => ({ id: UNKNOWN_SHEET, title: 'x' }),
      rest: () => ['PUT', `/v1/sheets/${UNKNOWN_SHEET}`, { title: 'x' }],
    },
    trash_sheet: {
      ok: () => ({ id: f.toTrash }),
      check: async (out) => assert.equal((await rest('GET', `/v1/sheets/${f.toTrash}`)).sheet.trashedAt, out.trashedAt),
      err: () => ({ id: f.bobSheet }),
      rest: () => ['DELETE', `/v1/sheets/${f.bobSheet}`],
    },
    restore_sheet: {
      ok: () => ({ id: f.trashed }),
      check: async () => assert.equal((await rest('GET', `/v1/sheets/${f.trashed}`)).sheet.trashedAt, null),
      err: () => ({ id: UNKNOWN_SHEET }),
      rest: () => ['POST', `/v1/sheets/${UNKNOWN_SHEET}/restore`],
    },
    export_sheet: {
      ok: () => ({ id: f.sheet, format: 'txt' }),
      check: async (out) => {
        assert.ok(out.url.startsWith(`${s.url}/exports/`), out.url);
        assert.match(await (await fetch(out.url)).text(), /^fixture sheet\n=+\n\nfixture text\n$/);
        const [ev] = (await s.events('export.completed')).filter((e) => e.data.url === out.url);
        assert.deepEqual(ev.data, { sheet_id: f.sheet, format: 'txt', url: out.url, workspace_id: `wsp_${alice.userId.slice(4)}`, actor_id: alice.userId });
      },
      err: () => ({ id: f.sheet, format: 'docx' }),
      rest: () => ['POST', `/v1/sheets/${f.sheet}/export`, { format: 'docx' }],
    },
    save_session: {
      ok: () => ({ title: 'stdio session', summary: 'Saved over stdio.', project: 'stdio' }),
      check: async (out) => assert.deepEqual((await rest('GET', `/v1/sessions/${out.id}`)).session, out.session),
      err: () => ({ title: 'no summary' }),
      rest: () => ['POST', '/v1/sessions', { title: 'no summary' }],
    },
    list_sessions: {
      ok: () => ({ project: 'fixture' }),
      check: async (out) => assert.deepEqual(without(out, 'has_more', 'next'), await rest('GET', '/v1/sessions?project=fixture&fields=title,project,tags,createdAt,workspace_id')),
      err: () => ({ offset: -1 }),
      rest: () => ['GET', '/v1/sessions?offset=-1'],
    },
    get_session: {
      ok: () => ({ id: f.session }),
      check: async (out) => assert.deepEqual(out, await rest('GET', `/v1/sessions/${f.session}`)),
      err: () => ({ id: 'ses_01jzzzzzzzzzzzzzzzzzzzzzzz' }),
      rest: () => ['GET', '/v1/sessions/ses_01jzzzzzzzzzzzzzzzzzzzzzzz'],
    },
    create_handover: {
      ok: () => ({ session_id: f.session, next_steps: ['Carry on'] }),
      check: async (out) => {
        ctx.handover = out.handover_id;
        assert.deepEqual((await rest('GET', `/v1/sheets/${out.handover_id}`)).sheet, out.sheet);
      },
      err: () => ({ session_id: 'ses_01jzzzzzzzzzzzzzzzzzzzzzzz' }),
      rest: () => ['POST', '/v1/sessions/handover', { session_id: 'ses_01jzzzzzzzzzzzzzzzzzzzzzzz' }],
    },
    get_latest_handover: {
      ok: () => ({ project: 'fixture' }),
      check: (out) => assert.equal(out.handover_id, ctx.handover),
      err: () => ({ project: 'no such project' }),
      expect: [404, 'not_found'],
    },
    update_session: {
      ok: () => ({ id: f.session, tags: ['stdio'] }),
      check: async (out) => assert.deepEqual((await rest('GET', `/v1/sessions/${f.session}`)).session, out.session),
      err: () => ({ id: 'ses_01jzzzzzzzzzzzzzzzzzzzzzzz', title: 'x' }),
      rest: () => ['PATCH', '/v1/sessions/ses_01jzzzzzzzzzzzzzzzzzzzzzzz', { title: 'x' }],
    },
    get_briefing: {
      ok: () => ({ project: 'fixture', max_chars: 2000 }),
      check: async (out) => assert.deepEqual(out, await rest('GET', '/v1/briefing?project=fixture&max_chars=2000')),
      err: () => ({ project: 'fixture', max_chars: 100 }),
      rest: () => ['GET', '/v1/briefing?project=fixture&max_chars=100'],
    },
    search: {
      ok: () => ({ q: 'enoent', limit: 5 }),
      check: async (out) => assert.deepEqual(without(out, 'lines'), await rest('GET', '/v1/search?q=enoent&limit=5')),
      err: () => ({ q: 'x', types: 'notes' }),
      rest: () => ['GET', '/v1/search?q=x&types=notes'],
    },
    search_knowledge: {
      ok: () => ({ q: 'enoent' }),
      check: async (out) => assert.deepEqual(without(out, 'solutions_page', 'snippets_page'), await rest('GET', '/v1/knowledge?q=enoent&fields=title,language,tags,createdAt,version,workspace_id')),
      err: () => ({ type: 'notes' }),
      rest: () => ['GET', '/v1/knowledge?type=notes'],
    },
    save_knowledge: {
      ok: () => ({ type: 'snippets', title: 'stdio snippet', content: 'y()' }),
      check: async (out) => assert.deepEqual((await rest('GET', `/v1/knowledge/${out.id}`)).snippet, out.snippet),
      err: () => ({ type: 'notes', title: 'a', content: 'b' }),
      rest: () => ['POST', '/v1/knowledge?type=notes', { title: 'a', content: 'b' }],
    },
    get_knowledge: {
      ok: () => ({ id: f.solution }),
      check: async (out) => assert.deepEqual(out, await rest('GET', `/v1/knowledge/${f.solution}`)),
      err: () => ({ id: 'sol_01jzzzzzzzzzzzzzzzzzzzzzzz' }),
      rest: () => ['GET', '/v1/knowledge/sol_01jzzzzzzzzzzzzzzzzzzzzzzz'],
    },
    update_knowledge: {
      ok: () => ({ id: f.solution, language: 'ts' }),
      check: async (out) => assert.deepEqual(out, await rest('GET', `/v1/knowledge/${f.solution}`)),
      err: () => ({ id: f.solution, title: '' }),
      rest: () => ['PUT', `/v1/knowledge/${f.solution}`, { title: '' }],
    },
    delete_knowledge: {
      ok: () => ({ id: f.snippetToDelete }),
      err: () => ({ id: f.snippetToDelete }),
      rest: () => ['DELETE', `/v1/knowledge/${f.snippetToDelete}`],
    },
    list_todos: {
      ok: () => ({ project: 'fixture' }),
      check: async (out) => assert.deepEqual(without(out, 'total', 'has_more'), await rest('GET', '/v1/todos?project=fixture')),
      err: () => ({ status: 'done' }),
      rest: () => ['GET', '/v1/todos?status=done'],
    },
    sync_todos: {
      ok: () => ({ project: 'fixture', todos: [{ content: 'keep', status: 'completed' }] }),
      check: (out) => assert.deepEqual([out.created, out.updated], [0, 1]),
      err: () => ({ todos: [{ content: 'x', status: 'done' }] }),
      rest: () => ['POST', '/v1/todos', { todos: [{ content: 'x', status: 'done' }] }],
    },
    delete_todo: {
      ok: () => ({ id: f.todoToDelete }),
      err: () => ({ id: f.todoToDelete }),
      rest: () => ['DELETE', `/v1/todos/${f.todoToDelete}`],
    },
    log_work_time: {
      ok: () => ({ hours: 1.25, project: 'fixture' }),
      check: (out) => assert.equal(out.log.hours, 1.25),
      err: () => ({ hours: 0 }),
      rest: () => ['POST', '/v1/stats?action=worktime', { hours: 0 }],
    },
    get_stats: {
      ok: () => ({}),
      check: async (out) => assert.deepEqual(out, await rest('GET', '/v1/stats')),
      afterKeyDisabled: () => ['GET', '/v1/stats'],
    },
    list_sparks: {
      ok: () => ({}),
      check: async (out) => assert.deepEqual(without(out, 'total', 'has_more'), await rest('GET', '/v1/spark')),
      afterKeyDisabled: () => ['GET', '/v1/spark'],
    },
    run_spark: {
      ok: () => ({ spark_id: 'spk_word_count', content: 'one two' }),
      check: async (out) => assert.deepEqual(out, await rest('POST', '/v1/spark', { spark_id: 'spk_word_count', content: 'one two' })),
      err: () => ({ spark_id: f.bobSpark, content: 'x' }),
      rest: () => ['POST', '/v1/spark', { spark_id: f.bobSpark, content: 'x' }],
    },
    translate_text: {
      ok: () => ({ content: 'hello', target_lang: 'fr' }),
      check: (out) => {
        assert.deepEqual(out, { success: true, target_lang: 'fr', result: 'fake answer' });
        assert.match(ai.requests.at(-1)!.body.messages[0].content, /into French/);
      },
      err: () => ({ content: 'hello', target_lang: 'xx' }),
      rest: () => ['POST', '/v1/spark?action=translate', { content: 'hello', target_lang: 'xx' }],
    },
    get_spark: {
      ok: () => ({ id: f.spark }),
      check: async (out) => assert.deepEqual(out, await rest('GET', `/v1/spark/${f.spark}`)),
      err: () => ({ id: f.bobSpark }),
      rest: () => ['GET', `/v1/spark/${f.bobSpark}`],
    },
    create_spark: {
      ok: () => ({ name: 'Stdio spark', prompt: 'Echo {{content}}' }),
      check: async (out) => assert.deepEqual((await rest('GET', `/v1/spark/${out.id}`)).spark, out.spark),
      // A prompt without {{content}} is accepted (issue 16); a blank one is not.
      err: () => ({ name: 'x', prompt: '  ' }),
      rest: () => ['POST', '/v1/spark?action=create', { name: 'x', prompt: '  ' }],
    },
    update_spark: {
      ok: () => ({ id: f.spark, name: 'Renamed' }),
      check: async (out) => assert.deepEqual(out, await rest('GET', `/v1/spark/${f.spark}`)),
      err: () => ({ id: 'spk_summarize', name: 'x' }),
      rest: () => ['PUT', '/v1/spark/spk_summarize', { name: 'x' }],
    },
    delete_spark: {
      ok: () => ({ id: f.sparkToDelete }),
      err: () => ({ id: f.sparkToDelete }),
      rest: () => ['DELETE', `/v1/spark/${f.sparkToDelete}`],
    },
    list_webhooks: {
      ok: () => ({}),
      check: async (out) => assert.deepEqual(without(out, 'total', 'has_more'), await rest('GET', '/v1/webhooks')),
      afterKeyDisabled: () => ['GET', '/v1/webhooks'],
    },
    register_webhook: {
      ok: () => ({ url: 'https://hooks.example.com/stdio', events: ['sheet.created'] }),
      check: (out) => assert.match(out.webhook.secret, /^whsec_/),
      err: () => ({ url: 'http://hooks.example.com/plain', events: ['*'] }),
      rest: () => ['POST', '/v1/webhooks', { url: 'http://hooks.example.com/plain', events: ['*'] }],
    },
    delete_webhook: {
      ok: () => ({ id: f.hookToDelete }),
      err: () => ({ id: f.hookToDelete }),
      rest: () => ['DELETE', `/v1/webhooks/${f.hookToDelete}`],
    },
    enable_webhook: {
      ok: () => ({ id: f.hook }),
      check: (out) => assert.equal(out.webhook.status, 'enabled'),
      err: () => ({ id: 'wh_01jzzzzzzzzzzzzzzzzzzzzzzz' }),
      rest: () => ['POST', '/v1/webhooks/wh_01jzzzzzzzzzzzzzzzzzzzzzzz/enable'],
    },
    test_webhook: {
      ok: () => ({ id: f.hook }),
      check: async (out) => {
        ctx.delivery = out.delivery.id;
        assert.deepEqual([out.delivery.event, out.delivery.status], ['webhook.test', 'delivered']);
        const got = rcv.received.find((r) => r.headers['x-service-delivery'] === out.delivery.id);
        assert.deepEqual(got?.body.data, { webhook_id: f.hook, message: 'Test delivery from Sheet Workspace' });
      },
      err: () => ({ id: f.hookToDelete }),
      rest: () => ['POST', `/v1/webhooks/${f.hookToDelete}/test`],
    },
    list_webhook_deliveries: {
      ok: () => ({ id: f.hook }),
      check: async (out) => {
        await s.worker!.idle(); // trash_sheet's sheet.deleted may still be on its way
        const again = ok(await client.callTool({ name: 'list_webhook_deliveries', arguments: { id: f.hook } }));
        assert.deepEqual(without(again, 'has_more'), await rest('GET', `/v1/webhooks/${f.hook}/deliveries`));
        assert.ok(out.deliveries.some((d: any) => d.id === ctx.delivery));
      },
      err: () => ({ id: f.hook, limit: 1.5 }),
      rest: () => ['GET', `/v1/webhooks/${f.hook}/deliveries?limit=1.5`],
    },
    redeliver_webhook_delivery: {
      ok: () => ({ id: f.hook, delivery_id: ctx.delivery }),
      check: async (out) => {
        assert.deepEqual([out.delivery.id, out.delivery.status], [ctx.delivery, 'pending']);
        // The server's worker, polling the shared database, sends it again.
        const sends = async () => (await rcv.waitFor(1)).filter((r) => r.headers['x-service-delivery'] === ctx.delivery).length;
        for (const end = Date.now() + 10_000; (await sends()) < 2;) {
          assert.ok(Date.now() < end, 'the redelivery did not arrive');
          await new Promise((r) => setTimeout(r, 20));
        }
      },
      err: () => ({ id: f.hook, delivery_id: 'dlv_01jzzzzzzzzzzzzzzzzzzzzzzz' }),
      rest: () => ['POST', `/v1/webhooks/${f.hook}/deliveries/dlv_01jzzzzzzzzzzzzzzzzzzzzzzz/redeliver`],
    },
    list_sheet_exports: {
      ok: () => ({ id: f.sheet }),
      check: async (out) => {
        assert.deepEqual(out, await rest('GET', `/v1/sheets/${f.sheet}/exports`));
        ctx.export = out.exports[0].export_id;
      },
      err: () => ({ id: f.bobSheet }),
      rest: () => ['GET', `/v1/sheets/${f.bobSheet}/exports`],
    },
    revoke_sheet_export: {
      ok: () => ({ id: f.sheet, export_id: ctx.export }),
      check: async () => assert.ok(!(await rest('GET', `/v1/sheets/${f.sheet}/exports`)).exports.some((x: any) => x.export_id === ctx.export)),
      err: () => ({ id: f.bobSheet, export_id: 'exp_01jzzzzzzzzzzzzzzzzzzzzzzz' }),
      rest: () => ['DELETE', `/v1/sheets/${f.bobSheet}/exports/exp_01jzzzzzzzzzzzzzzzzzzzzzzz`],
    },
    append_to_sheet: {
      ok: () => ({ id: f.edits, html: '<p>two</p>' }),
      check: async (out) => assert.deepEqual((await rest('GET', `/v1/sheets/${f.edits}`)).sheet, out.sheet),
      err: () => ({ id: f.bobSheet, html: 'x' }),
      rest: () => ['POST', `/v1/sheets/${f.bobSheet}/append`, { html: 'x' }],
    },
    replace_in_sheet: {
      ok: () => ({ id: f.edits, find: 'two', replace: 'three' }),
      check: async (out) => assert.deepEqual([out.replaced, out.sheet], [1, (await rest('GET', `/v1/sheets/${f.edits}`)).sheet]),
      err: () => ({ id: f.bobSheet, find: 'a', replace: 'b' }),
      rest: () => ['POST', `/v1/sheets/${f.bobSheet}/replace`, { find: 'a', replace: 'b' }],
    },
    add_column: {
      ok: () => ({ id: f.edits, html: '<p>c</p>' }),
      check: async (out) => assert.deepEqual([out.column, out.sheet], ['col2', (await rest('GET', `/v1/sheets/${f.edits}`)).sheet]),
      err: () => ({ id: UNKNOWN_SHEET }),
      rest: () => ['POST', `/v1/sheets/${UNKNOWN_SHEET}/columns`, {}],
    },
    remove_column: {
      ok: () => ({ id: f.edits, col: 'col2' }),
      check: async (out) => assert.deepEqual(out.sheet, (await rest('GET', `/v1/sheets/${f.edits}`)).sheet),
      err: () => ({ id: f.edits, col: 'col9' }),
      rest: () => ['DELETE', `/v1/sheets/${f.edits}/columns/col9`],
    },
    list_sheet_revisions: {
      ok: () => ({ id: f.edits }),
      check: async (out) => assert.deepEqual(without(out, 'has_more'), await rest('GET', `/v1/sheets/${f.edits}/revisions`)),
      err: () => ({ id: f.bobSheet }),
      rest: () => ['GET', `/v1/sheets/${f.bobSheet}/revisions`],
    },
    get_sheet_revision: {
      ok: () => ({ id: f.edits, version: 1 }),
      check: async (out) => assert.deepEqual(out, await rest('GET', `/v1/sheets/${f.edits}/revisions/1`)),
      err: () => ({ id: f.edits, version: 999 }),
      rest: () => ['GET', `/v1/sheets/${f.edits}/revisions/999`],
    },
    restore_sheet_revision: {
      ok: () => ({ id: f.edits, version: 1 }),
      check: async (out) => {
        assert.deepEqual(out.sheet.content, { col1: '<p>one</p>' });
        assert.deepEqual(out.sheet, (await rest('GET', `/v1/sheets/${f.edits}`)).sheet);
      },
      err: () => ({ id: f.edits, version: 999 }),
      rest: () => ['POST', `/v1/sheets/${f.edits}/revisions/999/restore`],
    },
    list_workspaces: {
      ok: () => ({}),
      check: async (out) => assert.deepEqual(out, await rest('GET', '/v1/workspaces')),
      afterKeyDisabled: () => ['GET', '/v1/workspaces'],
    },
    list_workspace_invitations: {
      ok: () => ({}),
      check: async (out) => {
        assert.deepEqual(out, await rest('GET', `/v1/workspaces/wsp_${alice.userId.slice(4)}/invitations`), 'default: the personal workspace (none)');
        // For the next row: a team workspace with one pending invitation.
        ctx.team = (await rest('POST', '/v1/workspaces', { name: 'stdio team' })).workspace.id;
        ctx.invitation = (await rest('POST', `/v1/workspaces/${ctx.team}/invitations`, { role: 'viewer' })).invitation.id;
      },
      err: () => ({ workspace_id: 'wsp_01jzzzzzzzzzzzzzzzzzzzzzzz' }),
      rest: () => ['GET', '/v1/workspaces/wsp_01jzzzzzzzzzzzzzzzzzzzzzzz/invitations'],
    },
    revoke_workspace_invitation: {
      ok: () => ({ workspace_id: ctx.team, invitation_id: ctx.invitation }),
      check: async () => assert.deepEqual((await rest('GET', `/v1/workspaces/${ctx.team}/invitations`)).invitations, []),
      err: () => ({ workspace_id: ctx.team, invitation_id: ctx.invitation }),
      rest: () => ['DELETE', `/v1/workspaces/${ctx.team}/invitations/${ctx.invitation}`],
    },
    share_sheet: {
      ok: () => ({ sheet_id: f.sheet, expires_in_hours: 1 }),
      check: async (out) => {
        ctx.share = out.share.id;
        assert.equal((await s.req('GET', `/v1/shared/${out.share.token}`)).body.sheet.title, 'fixture sheet');
      },
      err: () => ({ sheet_id: f.bobSheet }),
      rest: () => ['POST', `/v1/sheets/${f.bobSheet}/shares`, {}],
    },
    list_sheet_shares: {
      ok: () => ({ sheet_id: f.sheet }),
      check: async (out) => assert.deepEqual(out, await rest('GET', `/v1/sheets/${f.sheet}/shares`)),
      err: () => ({ sheet_id: UNKNOWN_SHEET }),
      rest: () => ['GET', `/v1/sheets/${UNKNOWN_SHEET}/shares`],
    },
    revoke_sheet_share: {
      ok: () => ({ sheet_id: f.sheet, share_id: ctx.share }),
      check: async () => assert.deepEqual((await rest('GET', `/v1/sheets/${f.sheet}/shares`)).shares, []),
      err: () => ({ sheet_id: f.sheet, share_id: ctx.share }),
      rest: () => ['DELETE', `/v1/sheets/${f.sheet}/shares/${ctx.share}`],
    },
  };
}
